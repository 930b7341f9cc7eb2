// Package moc3write writes synthetic Live2D .moc3 files for tests, from the
// public descriptions of the format and independently of the project's
// reader (p2l/moc3). Nothing outside tests imports it.
//
// Write lays out a Model for one version byte (V30…V53 = 1…6); Seeds gives
// small valid files of every version for fuzzing.
//
// # Sources
//
// Which description each part of the layout follows:
//
//   - Header (magic "MOC3", version byte, endianness byte, 64 bytes), the
//     section offset table at 0x40 (one u32 file offset per array, in the
//     order Write emits them), the count table (23 counts, 32 from 4.2, 35
//     from 5.0; 128 bytes, 256 from 5.0), the canvas block (five floats and
//     a flags byte in 64 bytes) and every section's arrays, field order and
//     element types through 5.0: OpenL2D moc3ingbird src/moc3.hexpat 2.1b
//     (SectionOffsetTable, CountInfoTable, the *Offsets structs), which
//     wader/fq format/moc3/moc3.go decodes the same way.
//   - Alignment: every array starts on a 64-byte boundary and empty arrays
//     take no space (fq moc3.go: fieldAlignedNArray pads non-empty arrays
//     to 64 bytes; moc3-rs write.rs SECTION_ALIGN = 64). Runtime-space
//     arrays hold 8 zero bytes per object (moc3.hexpat "runtimeSpace",
//     N*8) and an object's id array follows its last runtime space with no
//     padding (fq moc3.go fieldRuntimeSpace pads only the art meshes' first
//     three). The count table of 1.0–5.0 files is at 0x7c0 (moc3-rs
//     data.rs HEADER_RESERVE = 1984; fq moc3.go skips to 0x7c0); the file
//     ends padded to the alignment.
//   - Keyform positions and UVs are counted and indexed in floats, two per
//     point (moc3-rs data.rs: "L2D indexes these in units of f32"; fq
//     reads count/2 pairs). Keyforms are in grid order with the first axis
//     varying fastest (moc3-rs puppet/applicator.rs do_interpolate).
//     Blend-shape keyform bindings index their target's keyform arrays,
//     their parameter bindings the blend-shape parameter bindings, their
//     constraints the constraint-index array (moc3-rs puppet/collect.rs).
//     From 4.2 one colour index addresses both the multiply and the screen
//     arrays (moc3-rs collect.rs collect_colors_to_bind).
//   - Checked against the five official samples (write_test.go): the same
//     offsets and file length for the same counts, so the choices no
//     description states were read off them — 1.0–5.0 files list keyform
//     bindings and parameter bindings deduplicated, blend-shape keyforms
//     after all regular keyforms of their kind, parameter-binding keys
//     before blend-shape keys before parameter-extension keys, empty
//     arrays pointing at the aligned position (the file's end when last),
//     and a draw-order group's total count is its art-mesh objects plus its
//     part objects' groups' totals (plus, in 5.3, one per part object whose
//     part has an offscreen).
//   - 5.3 (version 6) has no public description. Its layout is inferred
//     from the structure of the one 5.3 sample (Ren) and the Core API
//     names in the research notes (csmGetOffscreen*, csmGetPartOffscreenIndices,
//     csmGetDrawableBlendModes = colour | alpha<<8): the count table moves
//     to 0x16c0; counts 35 and 36 are offscreens and offscreen keyforms;
//     after the 5.0 slots come parts' offscreen indices (s32, -1 none), art
//     meshes' blend modes (u32), the offscreens' runtime space, owner parts
//     (s32), flags (u8, the art-mesh flag bits), blend modes (u32), mask
//     begin indices and counts (into the shared drawable-mask array, the
//     offscreens' masks first), part keyforms' offscreen-keyform indices
//     (s32, -1 none), offscreen keyforms' opacities (f32) and multiply and
//     screen colour indices (into the shared colour arrays, offscreens'
//     first), and three slots that are empty in the sample, written empty.
//     Whether the array after the offscreens' runtime space is aligned
//     cannot be seen in the sample (24 offscreens = 192 bytes); Write
//     aligns it. All of this is UNVERIFIED beyond that one file.
package moc3write
