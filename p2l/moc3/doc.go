// Package moc3 reads Live2D Cubism .moc3 files, the binary models the
// Cubism Editor exports, into plain Go values.
//
// Parse reads files of every version the Editor writes: header version
// byte 1 to 6, Cubism 3.0, 3.3, 4.0, 4.2, 5.0 and 5.3, little- or
// big-endian. The result, a *Moc, holds the canvas, parameters, parts, the
// deformer list with its warp and rotation deformers, art meshes, glue,
// draw order groups, 5.3 offscreens and the keyform bindings, with every
// offset table resolved: references are indices (−1 for none), each
// object's keyforms are a slice in grid order with the axes (parameter and
// keys) of its binding, blend shapes hang on their target objects. Parse
// does not evaluate anything; lowering a Moc to a p2l.Model is done
// elsewhere.
//
// # Format
//
// A 64-byte header ("MOC3", version byte, endian byte), then at 0x40 a
// table of u32 file offsets: the count table, the canvas block, then one
// array per field, structure-of-arrays style (all part ids, then all part
// keyform binding indices, …). Each version appends fields to the table;
// objects refer to ranges of shared tables (keyforms, positions, keys,
// parameter bindings) by begin index and count. Keyform positions and UVs
// are counted and indexed in floats, two per point, and the Moc holds them
// so: x,y (u,v) float32 pairs.
//
// # Validation
//
// Like the standard library's format readers, Parse checks before it
// allocates: the header, the table against the file size, every count and
// array against the file and against each other (arrays may not overlap,
// which bounds what Parse allocates by the file's size: see
// docs/LIMITS.md, "moc3"), then every index, range, keyform count (the
// product of the binding's key counts; one per key for a blend shape) and
// parent chain. Keys must be finite and strictly ascending, a keyform
// binding spans at most MaxAxes parameters, warp grids must have
// (rows+1)·(columns+1) points. Ranges that are walked element by element
// (keyforms, triangle indices, glue pairs, blend-shape bindings, parameter
// bindings) may belong to one object only, which keeps the work linear in
// the file. A refused file gives a *FormatError naming the section, object
// (index and id), field and byte offset. Big-endian files (endian byte 1)
// are read like little-endian ones; no Editor-written big-endian file is
// known, so that path is tested only with hand-built files.
//
// # What is read as is
//
// Some values are kept without a known meaning: Canvas.Flags beyond bit 0,
// Deformer.ListBinding (the deformer list's own binding index; in the
// samples it equals the warp or rotation deformer's), the draw order
// groups' total object counts and minimum/maximum draw orders. The
// runtime-space arrays (filled by the Core at load time) are not read.
// For files older than 5.3, ArtMesh.BlendMode is derived from the two
// blend flag bits (AddCompatible, MultiplyCompatible), as the Core reports
// old models; files older than 4.2 have no colours (White multiply, Black
// screen), 4.2 files none for blend-shape keyforms.
//
// # Sources
//
// Byte layout from OpenL2D/moc3ingbird (src/moc3.hexpat 2.1b: header,
// count table and section offset table through 5.0), vtubing/moc3 (3.0–4.2),
// MahouTechnologies/moc3-rs (data.rs, and puppet/ for how keyform
// bindings, blend shapes and glue pairs are used) and wader/fq
// (format/moc3); the 5.3 additions (two counts and fifteen slots: part
// offscreen indices, art mesh blend modes, the offscreens' owner, flags,
// blend mode and masks, part keyforms' offscreen keyforms with opacity
// and colour indices, and three slots empty in the sample and ignored)
// have no public description and were read off the structure of the
// official 5.3 sample, Ren, and the Core API names (csmGetOffscreen*).
// No Live2D Core code was used.
package moc3
