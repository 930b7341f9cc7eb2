package moc3write

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/psd2live/p2l-ebiten/internal/cubismsamples"
)

// sample is a tiny view of an official sample's bytes, read here with
// nothing but the offset table, so the writer's layout can be compared
// with real files without committing any of their bytes.
type sample struct {
	b      []byte
	counts []uint32
}

func loadSample(t *testing.T, name string) sample {
	t.Helper()
	b, err := os.ReadFile(cubismsamples.Moc(t, name))
	if err != nil {
		t.Fatal(err)
	}
	if string(b[:4]) != "MOC3" || b[5] != 0 {
		t.Fatalf("%s: not a little-endian moc3", name)
	}
	s := sample{b: b}
	ct := int(s.u32(tableOffset))
	for i := range NumCounts(s.version()) {
		s.counts = append(s.counts, s.u32(ct+4*i))
	}
	return s
}

func (s sample) version() uint8     { return s.b[4] }
func (s sample) u32(off int) uint32 { return binary.LittleEndian.Uint32(s.b[off:]) }
func (s sample) slot(i int) int     { return int(s.u32(tableOffset + 4*i)) }
func (s sample) count(i int) int    { return int(s.counts[i]) }
func (s sample) i32s(slot, n int) []int32 {
	r := make([]int32, n)
	for k := range r {
		r[k] = int32(s.u32(s.slot(slot) + 4*k))
	}
	return r
}

// sized returns a flattened file whose every array has the length the
// counts c give it, the values zero: what the layout depends on.
func sized(v uint8, c []uint32) *file {
	n := func(i int) int {
		if i < len(c) {
			return int(c[i])
		}
		return 0
	}
	ids := func(i int) []string { return make([]string, n(i)) }
	i32 := func(i int) []int32 { return make([]int32, n(i)) }
	u32 := func(i int) []uint32 { return make([]uint32, n(i)) }
	f32 := func(i int) []float32 { return make([]float32, n(i)) }
	u16 := func(i int) []uint16 { return make([]uint16, n(i)) }
	u8 := func(i int) []uint8 { return make([]uint8, n(i)) }
	tg := func(i int) bsTargets { return bsTargets{i32(i), i32(i), i32(i)} }
	return &file{
		version: v,
		partIDs: ids(CountParts), partKB: i32(CountParts), partKFBegin: i32(CountParts), partKFCount: i32(CountParts),
		partVisible: u32(CountParts), partEnabled: u32(CountParts), partParent: i32(CountParts), partOffscreen: i32(CountParts),
		defIDs: ids(CountDeformers), defKB: i32(CountDeformers), defVisible: u32(CountDeformers), defEnabled: u32(CountDeformers),
		defParentPart: i32(CountDeformers), defParentDef: i32(CountDeformers), defType: u32(CountDeformers), defSpecific: i32(CountDeformers),
		warpKB: i32(CountWarpDeformers), warpKFBegin: i32(CountWarpDeformers), warpKFCount: i32(CountWarpDeformers),
		warpVertices: i32(CountWarpDeformers), warpRows: u32(CountWarpDeformers), warpCols: u32(CountWarpDeformers),
		warpQuad: u32(CountWarpDeformers), warpColorBegin: i32(CountWarpDeformers),
		rotKB: i32(CountRotationDeformers), rotKFBegin: i32(CountRotationDeformers), rotKFCount: i32(CountRotationDeformers),
		rotBaseAngle: f32(CountRotationDeformers), rotColorBegin: i32(CountRotationDeformers),
		artIDs: ids(CountArtMeshes), artKB: i32(CountArtMeshes), artKFBegin: i32(CountArtMeshes), artKFCount: i32(CountArtMeshes),
		artVisible: u32(CountArtMeshes), artEnabled: u32(CountArtMeshes), artParentPart: i32(CountArtMeshes), artParentDef: i32(CountArtMeshes),
		artTexture: u32(CountArtMeshes), artFlags: u8(CountArtMeshes), artVertices: i32(CountArtMeshes), artUVBegin: i32(CountArtMeshes),
		artIndexBegin: i32(CountArtMeshes), artIndexCount: i32(CountArtMeshes), artMaskBegin: i32(CountArtMeshes), artMaskCount: i32(CountArtMeshes),
		artColorBegin: i32(CountArtMeshes), artBlend: u32(CountArtMeshes),
		paramIDs: ids(CountParameters), paramMax: f32(CountParameters), paramMin: f32(CountParameters), paramDefault: f32(CountParameters),
		paramRepeat: u32(CountParameters), paramDecimals: u32(CountParameters), paramPBBegin: i32(CountParameters), paramPBCount: i32(CountParameters),
		paramKeysBegin: i32(CountParameters), paramKeysCount: i32(CountParameters), paramType: u32(CountParameters),
		paramBSPBBegin: i32(CountParameters), paramBSPBCount: i32(CountParameters),
		partKFDrawOrder: f32(CountPartKeyforms), partKFOffscreenKF: i32(CountPartKeyforms),
		warpKFOpacity: f32(CountWarpDeformerKeyforms), warpKFPosBegin: i32(CountWarpDeformerKeyforms),
		warpKFMul: i32(CountWarpDeformerKeyforms), warpKFScr: i32(CountWarpDeformerKeyforms),
		rotKFOpacity: f32(CountRotationDeformerKeyforms), rotKFAngle: f32(CountRotationDeformerKeyforms),
		rotKFOriginX: f32(CountRotationDeformerKeyforms), rotKFOriginY: f32(CountRotationDeformerKeyforms),
		rotKFScale: f32(CountRotationDeformerKeyforms), rotKFReflectX: u32(CountRotationDeformerKeyforms),
		rotKFReflectY: u32(CountRotationDeformerKeyforms), rotKFMul: i32(CountRotationDeformerKeyforms), rotKFScr: i32(CountRotationDeformerKeyforms),
		artKFOpacity: f32(CountArtMeshKeyforms), artKFDrawOrder: f32(CountArtMeshKeyforms), artKFPosBegin: i32(CountArtMeshKeyforms),
		artKFMul: i32(CountArtMeshKeyforms), artKFScr: i32(CountArtMeshKeyforms),
		positions: f32(CountKeyformPositions), pbIndices: i32(CountParameterBindingIndices),
		kbBegin: i32(CountKeyformBindings), kbCount: i32(CountKeyformBindings),
		pbKeysBegin: i32(CountParameterBindings), pbKeysCount: i32(CountParameterBindings),
		keys: f32(CountKeys), uvs: f32(CountUVs), vertexIndices: u16(CountPositionIndices), masks: i32(CountDrawableMasks),
		dogBegin: i32(CountDrawOrderGroups), dogCount: i32(CountDrawOrderGroups), dogTotal: i32(CountDrawOrderGroups),
		dogMax: u32(CountDrawOrderGroups), dogMin: u32(CountDrawOrderGroups),
		dogoType: u32(CountDrawOrderGroupObjects), dogoIndex: i32(CountDrawOrderGroupObjects), dogoSelf: i32(CountDrawOrderGroupObjects),
		glueIDs: ids(CountGlue), glueKB: i32(CountGlue), glueKFBegin: i32(CountGlue), glueKFCount: i32(CountGlue),
		glueA: i32(CountGlue), glueB: i32(CountGlue), glueInfoBegin: i32(CountGlue), glueInfoCount: i32(CountGlue),
		glueInfoWeight: f32(CountGlueInfo), glueInfoVertex: u16(CountGlueInfo), glueKFIntensity: f32(CountGlueKeyforms),
		mulR: f32(CountKeyformMultiplyColors), mulG: f32(CountKeyformMultiplyColors), mulB: f32(CountKeyformMultiplyColors),
		scrR: f32(CountKeyformScreenColors), scrG: f32(CountKeyformScreenColors), scrB: f32(CountKeyformScreenColors),
		bspbKeysBegin: i32(CountBlendShapeParameterBindings), bspbKeysCount: i32(CountBlendShapeParameterBindings),
		bspbBase: i32(CountBlendShapeParameterBindings),
		bskbPB:   i32(CountBlendShapeKeyformBindings), bskbKFBegin: i32(CountBlendShapeKeyformBindings),
		bskbKFCount: i32(CountBlendShapeKeyformBindings), bskbCIBegin: i32(CountBlendShapeKeyformBindings),
		bskbCICount: i32(CountBlendShapeKeyformBindings),
		bsWarp:      tg(CountBlendShapesWarpDeformers), bsArt: tg(CountBlendShapesArtMeshes), bsPart: tg(CountBlendShapesParts),
		bsRot: tg(CountBlendShapesRotationDeformers), bsGlue: tg(CountBlendShapesGlue),
		bsConstraintIndices: i32(CountBlendShapeConstraintIndices),
		bscParam:            i32(CountBlendShapeConstraints), bscValBegin: i32(CountBlendShapeConstraints), bscValCount: i32(CountBlendShapeConstraints),
		bscvKey: f32(CountBlendShapeConstraintValues), bscvWeight: f32(CountBlendShapeConstraintValues),
		offOwner: i32(CountOffscreens), offFlags: u8(CountOffscreens), offBlend: u32(CountOffscreens),
		offMaskBegin: i32(CountOffscreens), offMaskCount: i32(CountOffscreens),
		offKFOpacity: f32(CountOffscreenKeyforms), offKFMul: i32(CountOffscreenKeyforms), offKFScr: i32(CountOffscreenKeyforms),
	}
}

// TestSampleLayout lays out, for each official sample, arrays of the
// sample's own counts and requires every offset-table entry, the count
// table and the file length to equal the sample's: the section order,
// element sizes, alignment, id adjacency, count-table place and size and
// the final padding all agree with Live2D's own files.
func TestSampleLayout(t *testing.T) {
	for _, name := range cubismsamples.Names {
		t.Run(name, func(t *testing.T) {
			s := loadSample(t, name)
			v := s.version()
			out := layout(sized(v, s.counts), Canvas{}, binary.LittleEndian)
			if len(out) != len(s.b) {
				t.Errorf("length %d, sample %d", len(out), len(s.b))
			}
			got := loadBytes(out)
			slots := (firstSection(v) - tableOffset) / 4
			used := 0
			for i := range slots {
				want := s.slot(i)
				if have := int(binary.LittleEndian.Uint32(out[tableOffset+4*i:])); have != want {
					t.Errorf("slot %d: offset %#x, sample %#x", i, have, want)
				}
				if want != 0 {
					used = i + 1
				}
			}
			for i, c := range s.counts {
				if got.counts[i] != c {
					t.Errorf("count %d: %d, sample %d", i, got.counts[i], c)
				}
			}
			t.Logf("version %d: %d slots, %d counts, %d bytes", v, used, len(s.counts), len(s.b))
		})
	}
}

func loadBytes(b []byte) sample {
	s := sample{b: b}
	ct := int(s.u32(tableOffset))
	for i := range NumCounts(s.version()) {
		s.counts = append(s.counts, s.u32(ct+4*i))
	}
	return s
}

// Offset-table slots the convention checks read (moc3.hexpat order; 5.3
// slots as the package comment lists them).
const (
	slotArtMaskBegin     = 47
	slotArtMaskCount     = 48
	slotParamBindIndices = 72
	slotKeyformBindBegin = 73
	slotKeyformBindCount = 74
	slotDOGBegin         = 81
	slotDOGCount         = 82
	slotDOGTotal         = 83
	slotDOGOType         = 86
	slotDOGOIndex        = 87
	slotDOGOSelf         = 88
	slotWarpVertices     = 22
	slotWarpRows         = 23
	slotWarpCols         = 24
	slotPartOffscreen    = 152 // 5.3
	slotOffscreenOwner   = 155
	slotOffMaskBegin     = 158
	slotOffMaskCount     = 159
	slotPartKFOffKF      = 160
)

// TestSampleConventions checks, on the official samples, the conventions
// Write follows that no description states: warp grids have
// (rows+1)·(columns+1) points, keyform bindings are deduplicated, a
// draw-order group's total is its art-mesh objects plus its part objects'
// groups' totals (plus one per part object owning an offscreen in 5.3), and
// (5.3, Ren) the offscreen arrays relate as the package
// comment infers.
func TestSampleConventions(t *testing.T) {
	for _, name := range cubismsamples.Names {
		t.Run(name, func(t *testing.T) {
			s := loadSample(t, name)
			nw := s.count(CountWarpDeformers)
			vc, rows, cols := s.i32s(slotWarpVertices, nw), s.i32s(slotWarpRows, nw), s.i32s(slotWarpCols, nw)
			for i := range nw {
				if vc[i] != (rows[i]+1)*(cols[i]+1) {
					t.Errorf("warp %d: %d vertices, grid %dx%d", i, vc[i], rows[i], cols[i])
				}
			}

			nkb := s.count(CountKeyformBindings)
			pbi := s.i32s(slotParamBindIndices, s.count(CountParameterBindingIndices))
			kbB, kbC := s.i32s(slotKeyformBindBegin, nkb), s.i32s(slotKeyformBindCount, nkb)
			seen := map[string]int{}
			for i := range nkb {
				key := ""
				for _, p := range pbi[kbB[i] : kbB[i]+kbC[i]] {
					key += string(rune(p)) + ","
				}
				if j, dup := seen[key]; dup {
					t.Errorf("keyform bindings %d and %d are equal", j, i)
				}
				seen[key] = i
			}

			ng := s.count(CountDrawOrderGroups)
			no := s.count(CountDrawOrderGroupObjects)
			gB, gC, gT := s.i32s(slotDOGBegin, ng), s.i32s(slotDOGCount, ng), s.i32s(slotDOGTotal, ng)
			oT, oI, oS := s.i32s(slotDOGOType, no), s.i32s(slotDOGOIndex, no), s.i32s(slotDOGOSelf, no)
			var partOff []int32 // 5.3: a part's offscreen counts as one more object
			if s.version() >= V53 {
				partOff = s.i32s(slotPartOffscreen, s.count(CountParts))
			}
			for g := range ng {
				want := int32(0)
				for o := gB[g]; o < gB[g]+gC[g]; o++ {
					if oT[o] == 0 {
						want++
					} else {
						want += gT[oS[o]]
						if partOff != nil && partOff[oI[o]] >= 0 {
							want++
						}
					}
				}
				if gT[g] != want {
					t.Errorf("draw-order group %d: total %d, art meshes plus nested totals %d", g, gT[g], want)
				}
			}

			if s.version() < V53 {
				return
			}
			np, noff := s.count(CountParts), s.count(CountOffscreens)
			partOff, owner := s.i32s(slotPartOffscreen, np), s.i32s(slotOffscreenOwner, noff)
			owned := 0
			for p, o := range partOff {
				if o >= 0 {
					owned++
					if owner[o] != int32(p) {
						t.Errorf("part %d: offscreen %d, whose owner is %d", p, o, owner[o])
					}
				}
			}
			if owned != noff {
				t.Errorf("%d parts own an offscreen, %d offscreens", owned, noff)
			}
			kfOff := s.i32s(slotPartKFOffKF, s.count(CountPartKeyforms))
			next := int32(0)
			for k, o := range kfOff {
				if o >= 0 {
					if o != next {
						t.Errorf("part keyform %d: offscreen keyform %d, want %d", k, o, next)
					}
					next++
				}
			}
			if int(next) != s.count(CountOffscreenKeyforms) {
				t.Errorf("%d part keyforms have an offscreen keyform, count table says %d", next, s.count(CountOffscreenKeyforms))
			}
			// The offscreens' masks then the art meshes' tile the masks.
			na := s.count(CountArtMeshes)
			begins := append(s.i32s(slotOffMaskBegin, noff), s.i32s(slotArtMaskBegin, na)...)
			counts := append(s.i32s(slotOffMaskCount, noff), s.i32s(slotArtMaskCount, na)...)
			at := int32(0)
			for i := range begins {
				if counts[i] > 0 && begins[i] != at {
					t.Errorf("mask range %d begins at %d, want %d", i, begins[i], at)
				}
				at += counts[i]
			}
			if int(at) != s.count(CountDrawableMasks) {
				t.Errorf("mask ranges cover %d, count table says %d", at, s.count(CountDrawableMasks))
			}
		})
	}
}
