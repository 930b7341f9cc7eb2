package moc3write

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// maxKeyforms bounds an object's keyform grid so a mistaken model fails
// instead of allocating without limit.
const maxKeyforms = 1 << 20

// file is a Model flattened into the file's parallel arrays, before layout.
// Signed indices are int32, unsigned values uint32, as the descriptions
// type them (s32/u32 in moc3.hexpat).
type file struct {
	version uint8

	partIDs                                        []string
	partKB, partKFBegin, partKFCount               []int32
	partVisible, partEnabled                       []uint32
	partParent                                     []int32
	partOffscreen                                  []int32 // 5.3
	defIDs                                         []string
	defKB                                          []int32
	defVisible, defEnabled                         []uint32
	defParentPart, defParentDef                    []int32
	defType                                        []uint32
	defSpecific                                    []int32
	warpKB, warpKFBegin, warpKFCount, warpVertices []int32
	warpRows, warpCols                             []uint32
	warpQuad                                       []uint32 // 3.3
	warpColorBegin                                 []int32  // 4.2
	rotKB, rotKFBegin, rotKFCount                  []int32
	rotBaseAngle                                   []float32
	rotColorBegin                                  []int32 // 4.2
	artIDs                                         []string
	artKB, artKFBegin, artKFCount                  []int32
	artVisible, artEnabled                         []uint32
	artParentPart, artParentDef                    []int32
	artTexture                                     []uint32
	artFlags                                       []uint8
	artVertices, artUVBegin                        []int32
	artIndexBegin, artIndexCount                   []int32
	artMaskBegin, artMaskCount                     []int32
	artColorBegin                                  []int32  // 4.2
	artBlend                                       []uint32 // 5.3
	paramIDs                                       []string
	paramMax, paramMin, paramDefault               []float32
	paramRepeat, paramDecimals                     []uint32
	paramPBBegin, paramPBCount                     []int32
	paramKeysBegin, paramKeysCount                 []int32  // 4.2
	paramType                                      []uint32 // 4.2
	paramBSPBBegin, paramBSPBCount                 []int32  // 4.2

	partKFDrawOrder                  []float32
	partKFOffscreenKF                []int32 // 5.3
	warpKFOpacity                    []float32
	warpKFPosBegin                   []int32
	warpKFMul, warpKFScr             []int32 // 5.0
	rotKFOpacity, rotKFAngle         []float32
	rotKFOriginX, rotKFOriginY       []float32
	rotKFScale                       []float32
	rotKFReflectX, rotKFReflectY     []uint32
	rotKFMul, rotKFScr               []int32 // 5.0
	artKFOpacity, artKFDrawOrder     []float32
	artKFPosBegin                    []int32
	artKFMul, artKFScr               []int32 // 5.0
	positions                        []float32
	pbIndices                        []int32
	kbBegin, kbCount                 []int32
	pbKeysBegin, pbKeysCount         []int32
	keys                             []float32
	uvs                              []float32
	vertexIndices                    []uint16
	masks                            []int32
	dogBegin, dogCount, dogTotal     []int32
	dogMax, dogMin                   []uint32
	dogoType                         []uint32
	dogoIndex, dogoSelf              []int32
	glueIDs                          []string
	glueKB, glueKFBegin, glueKFCount []int32
	glueA, glueB                     []int32
	glueInfoBegin, glueInfoCount     []int32
	glueInfoWeight                   []float32
	glueInfoVertex                   []uint16
	glueKFIntensity                  []float32

	mulR, mulG, mulB []float32 // 4.2
	scrR, scrG, scrB []float32 // 4.2

	bspbKeysBegin, bspbKeysCount, bspbBase []int32 // 4.2
	bskbPB, bskbKFBegin, bskbKFCount       []int32
	bskbCIBegin, bskbCICount               []int32
	bsWarp, bsArt, bsPart, bsRot, bsGlue   bsTargets // warp, art: 4.2; others 5.0
	bsConstraintIndices                    []int32
	bscParam, bscValBegin, bscValCount     []int32
	bscvKey, bscvWeight                    []float32

	offOwner                   []int32 // 5.3
	offFlags                   []uint8
	offBlend                   []uint32
	offMaskBegin, offMaskCount []int32
	offKFOpacity               []float32
	offKFMul, offKFScr         []int32
}

// bsTargets are the blend-shape arrays of one object kind.
type bsTargets struct {
	target, kbBegin, kbCount []int32
}

func boolU32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// keyOf identifies a key list exactly (bit patterns, so -0 and NaNs stay
// distinct) for the parameter-binding deduplication.
func keyOf(prefix int, keys []float32, extra int32) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d/%d:", prefix, extra)
	for _, k := range keys {
		fmt.Fprintf(&sb, "%08x,", math.Float32bits(k))
	}
	return sb.String()
}

// bindings assigns the parameter bindings (grouped by parameter, as each
// parameter's begin/count requires) and the keyform bindings (each a list
// of parameter-binding indices), deduplicating both as the samples do.
type bindings struct {
	params   int
	perParam [][]string // binding keys per parameter, first appearance order
	keysOf   map[string][]float32
	kbLists  [][]string // per keyform binding: its parameter-binding keys
	kbIndex  map[string]int
}

func newBindings(params int) *bindings {
	return &bindings{params: params, perParam: make([][]string, params), keysOf: map[string][]float32{}, kbIndex: map[string]int{}}
}

// add registers an object's axes and returns its keyform binding index.
func (b *bindings) add(what string, axes []Axis, keyforms int) (int, error) {
	grid := 1
	list := make([]string, len(axes))
	for i, a := range axes {
		if a.Parameter < 0 || a.Parameter >= b.params {
			return 0, fmt.Errorf("%s: axis %d: parameter %d out of range [0,%d)", what, i, a.Parameter, b.params)
		}
		if len(a.Keys) == 0 {
			return 0, fmt.Errorf("%s: axis %d: no keys", what, i)
		}
		grid *= len(a.Keys)
		if grid > maxKeyforms {
			return 0, fmt.Errorf("%s: keyform grid over %d keyforms", what, maxKeyforms)
		}
		k := keyOf(a.Parameter, a.Keys, 0)
		if _, ok := b.keysOf[k]; !ok {
			b.keysOf[k] = a.Keys
			b.perParam[a.Parameter] = append(b.perParam[a.Parameter], k)
		}
		list[i] = k
	}
	if keyforms != grid {
		return 0, fmt.Errorf("%s: %d keyforms, the axes' grid has %d", what, keyforms, grid)
	}
	kb := strings.Join(list, "|") + fmt.Sprintf("#%d", len(list))
	idx, ok := b.kbIndex[kb]
	if !ok {
		idx = len(b.kbLists)
		b.kbIndex[kb] = idx
		b.kbLists = append(b.kbLists, list)
	}
	return idx, nil
}

// emit writes the parameter bindings, their keys and the keyform bindings.
func (b *bindings) emit(f *file) {
	pbIndex := map[string]int32{}
	for p := range b.params {
		// A parameter bound to nothing gets the range −1+0, as the Editor
		// writes it (Live2D's Wanko sample, PARAM_MOUTH_FORM).
		begin := int32(len(f.pbKeysBegin))
		if len(b.perParam[p]) == 0 {
			begin = -1
		}
		f.paramPBBegin = append(f.paramPBBegin, begin)
		f.paramPBCount = append(f.paramPBCount, int32(len(b.perParam[p])))
		for _, k := range b.perParam[p] {
			pbIndex[k] = int32(len(f.pbKeysBegin))
			f.pbKeysBegin = append(f.pbKeysBegin, int32(len(f.keys)))
			f.pbKeysCount = append(f.pbKeysCount, int32(len(b.keysOf[k])))
			f.keys = append(f.keys, b.keysOf[k]...)
		}
	}
	for _, list := range b.kbLists {
		f.kbBegin = append(f.kbBegin, int32(len(f.pbIndices)))
		f.kbCount = append(f.kbCount, int32(len(list)))
		for _, k := range list {
			f.pbIndices = append(f.pbIndices, pbIndex[k])
		}
	}
}

// colorTable appends keyform colours; one index addresses both the
// multiply and the screen arrays.
func (f *file) color(c *Colors) int32 {
	mul, scr := [3]float32{1, 1, 1}, [3]float32{}
	if c != nil {
		mul, scr = c.Multiply, c.Screen
	}
	i := int32(len(f.mulR))
	f.mulR, f.mulG, f.mulB = append(f.mulR, mul[0]), append(f.mulG, mul[1]), append(f.mulB, mul[2])
	f.scrR, f.scrG, f.scrB = append(f.scrR, scr[0]), append(f.scrG, scr[1]), append(f.scrB, scr[2])
	return i
}

func flags(blend uint8, doubleSided, inverted bool) uint8 {
	v := blend & 3
	if doubleSided {
		v |= 1 << 2
	}
	if inverted {
		v |= 1 << 3
	}
	return v
}

func checkID(what, id string) error {
	if len(id) > 64 {
		return fmt.Errorf("%s: id %q longer than 64 bytes", what, id)
	}
	return nil
}

// flatten checks m against version v and builds the file's arrays.
func flatten(m *Model, v uint8) (*file, error) {
	if !slices.Contains(Versions, v) {
		return nil, fmt.Errorf("moc3write: unknown version %d (want 1-6)", v)
	}
	if err := checkVersionFields(m, v); err != nil {
		return nil, fmt.Errorf("moc3write: version %d: %w", v, err)
	}
	f := &file{version: v}
	if err := f.fill(m); err != nil {
		return nil, fmt.Errorf("moc3write: %w", err)
	}
	return f, nil
}

// checkVersionFields refuses what version v cannot store.
func checkVersionFields(m *Model, v uint8) error {
	if v < V42 {
		for i, p := range m.Parameters {
			if p.BlendShape || len(p.Keys) > 0 {
				return fmt.Errorf("parameter %d: blend-shape type and keys need 4.2", i)
			}
		}
	}
	colors := func(what string, c *Colors) error {
		if c != nil && v < V42 {
			return fmt.Errorf("%s: keyform colours need 4.2", what)
		}
		return nil
	}
	need := func(what string, n int, min uint8, name string) error {
		if n > 0 && v < min {
			return fmt.Errorf("%s: %s need version %d", what, name, min)
		}
		return nil
	}
	for i, p := range m.Parts {
		if err := need(fmt.Sprintf("part %d", i), len(p.BlendShapes), V50, "blend shapes"); err != nil {
			return err
		}
	}
	for i, d := range m.Deformers {
		what := fmt.Sprintf("deformer %d", i)
		if w := d.Warp; w != nil {
			if w.QuadSource && v < V33 {
				return fmt.Errorf("%s: quad source needs 3.3", what)
			}
			if err := need(what, len(w.BlendShapes), V42, "blend shapes"); err != nil {
				return err
			}
			for s, sh := range w.BlendShapes {
				for k, kf := range sh.Keyforms {
					if err := bsColors(fmt.Sprintf("%s blend shape %d keyform %d", what, s, k), kf.Colors, v); err != nil {
						return err
					}
				}
			}
			for k, kf := range w.Keyforms {
				if err := colors(fmt.Sprintf("%s keyform %d", what, k), kf.Colors); err != nil {
					return err
				}
			}
		}
		if r := d.Rotation; r != nil {
			if err := need(what, len(r.BlendShapes), V50, "blend shapes"); err != nil {
				return err
			}
			for k, kf := range r.Keyforms {
				if err := colors(fmt.Sprintf("%s keyform %d", what, k), kf.Colors); err != nil {
					return err
				}
			}
		}
	}
	for i, a := range m.ArtMeshes {
		what := fmt.Sprintf("art mesh %d", i)
		if err := need(what, len(a.BlendShapes), V42, "blend shapes"); err != nil {
			return err
		}
		for s, sh := range a.BlendShapes {
			for k, kf := range sh.Keyforms {
				if err := bsColors(fmt.Sprintf("%s blend shape %d keyform %d", what, s, k), kf.Colors, v); err != nil {
					return err
				}
			}
		}
		if a.Blend != (Blend{}) && v < V53 {
			return fmt.Errorf("%s: blend modes need 5.3", what)
		}
		for k, kf := range a.Keyforms {
			if err := colors(fmt.Sprintf("%s keyform %d", what, k), kf.Colors); err != nil {
				return err
			}
		}
	}
	for i, g := range m.Glues {
		if err := need(fmt.Sprintf("glue %d", i), len(g.BlendShapes), V50, "blend shapes"); err != nil {
			return err
		}
	}
	return need("model", len(m.Offscreens), V53, "offscreens")
}

// bsColors refuses colours on a blend-shape keyform before 5.0: 4.2
// addresses keyform colours only through one begin index per object
// (moc3.hexpat *OffsetsV4_2), which reaches the object's regular keyforms
// but not its blend-shape keyforms (stored after all regular keyforms);
// 5.0's per-keyform indices (*KeyformOffsetsV5_0) reach them.
func bsColors(what string, c *Colors, v uint8) error {
	if c != nil && v < V50 {
		return fmt.Errorf("%s: colours of blend-shape keyforms need 5.0", what)
	}
	return nil
}

func (f *file) fill(m *Model) error {
	b := newBindings(len(m.Parameters))

	// Objects and their regular keyforms, kind by kind in file order.
	for i, p := range m.Parts {
		what := fmt.Sprintf("part %d", i)
		if err := checkID(what, p.ID); err != nil {
			return err
		}
		kb, err := b.add(what, p.Axes, len(p.Keyforms))
		if err != nil {
			return err
		}
		f.partIDs = append(f.partIDs, p.ID)
		f.partKB = append(f.partKB, int32(kb))
		f.partKFBegin = append(f.partKFBegin, int32(len(f.partKFDrawOrder)))
		f.partKFCount = append(f.partKFCount, int32(len(p.Keyforms)))
		f.partVisible = append(f.partVisible, boolU32(p.Visible))
		f.partEnabled = append(f.partEnabled, boolU32(p.Enabled))
		f.partParent = append(f.partParent, int32(p.Parent))
		for _, kf := range p.Keyforms {
			f.partKFDrawOrder = append(f.partKFDrawOrder, kf.DrawOrder)
		}
	}
	var warps, rots []*Deformer
	for i := range m.Deformers {
		d := &m.Deformers[i]
		what := fmt.Sprintf("deformer %d", i)
		if err := checkID(what, d.ID); err != nil {
			return err
		}
		if (d.Warp == nil) == (d.Rotation == nil) {
			return fmt.Errorf("%s: exactly one of Warp and Rotation must be set", what)
		}
		n := 0
		if d.Warp != nil {
			n = len(d.Warp.Keyforms)
		} else {
			n = len(d.Rotation.Keyforms)
		}
		kb, err := b.add(what, d.Axes, n)
		if err != nil {
			return err
		}
		f.defIDs = append(f.defIDs, d.ID)
		f.defKB = append(f.defKB, int32(kb))
		f.defVisible = append(f.defVisible, boolU32(d.Visible))
		f.defEnabled = append(f.defEnabled, boolU32(d.Enabled))
		f.defParentPart = append(f.defParentPart, int32(d.ParentPart))
		f.defParentDef = append(f.defParentDef, int32(d.ParentDeformer))
		if w := d.Warp; w != nil {
			if w.Rows < 0 || w.Columns < 0 || (w.Rows+1)*(w.Columns+1) > maxKeyforms {
				return fmt.Errorf("%s: bad warp grid %dx%d", what, w.Rows, w.Columns)
			}
			f.defType = append(f.defType, 0)
			f.defSpecific = append(f.defSpecific, int32(len(warps)))
			warps = append(warps, d)
			f.warpKB = append(f.warpKB, int32(kb))
			f.warpKFBegin = append(f.warpKFBegin, int32(len(f.warpKFOpacity)))
			f.warpKFCount = append(f.warpKFCount, int32(len(w.Keyforms)))
			f.warpVertices = append(f.warpVertices, int32((w.Rows+1)*(w.Columns+1)))
			f.warpRows = append(f.warpRows, uint32(w.Rows))
			f.warpCols = append(f.warpCols, uint32(w.Columns))
			f.warpQuad = append(f.warpQuad, boolU32(w.QuadSource))
			for k, kf := range w.Keyforms {
				if err := f.warpKeyform(w, kf, fmt.Sprintf("%s keyform %d", what, k)); err != nil {
					return err
				}
			}
		} else {
			r := d.Rotation
			f.defType = append(f.defType, 1)
			f.defSpecific = append(f.defSpecific, int32(len(rots)))
			rots = append(rots, d)
			f.rotKB = append(f.rotKB, int32(kb))
			f.rotKFBegin = append(f.rotKFBegin, int32(len(f.rotKFOpacity)))
			f.rotKFCount = append(f.rotKFCount, int32(len(r.Keyforms)))
			f.rotBaseAngle = append(f.rotBaseAngle, r.BaseAngle)
			for _, kf := range r.Keyforms {
				f.rotKeyform(kf)
			}
		}
	}

	for i := range m.ArtMeshes {
		a := &m.ArtMeshes[i]
		what := fmt.Sprintf("art mesh %d", i)
		if err := checkID(what, a.ID); err != nil {
			return err
		}
		kb, err := b.add(what, a.Axes, len(a.Keyforms))
		if err != nil {
			return err
		}
		f.artIDs = append(f.artIDs, a.ID)
		f.artKB = append(f.artKB, int32(kb))
		f.artKFBegin = append(f.artKFBegin, int32(len(f.artKFOpacity)))
		f.artKFCount = append(f.artKFCount, int32(len(a.Keyforms)))
		f.artVisible = append(f.artVisible, boolU32(a.Visible))
		f.artEnabled = append(f.artEnabled, boolU32(a.Enabled))
		f.artParentPart = append(f.artParentPart, int32(a.ParentPart))
		f.artParentDef = append(f.artParentDef, int32(a.ParentDeformer))
		f.artTexture = append(f.artTexture, a.Texture)
		if a.BlendMode > 3 {
			return fmt.Errorf("%s: blend mode %d does not fit 2 bits", what, a.BlendMode)
		}
		f.artFlags = append(f.artFlags, flags(a.BlendMode, a.DoubleSided, a.InvertedMask))
		f.artVertices = append(f.artVertices, int32(len(a.UVs)))
		f.artUVBegin = append(f.artUVBegin, int32(len(f.uvs)))
		for _, uv := range a.UVs {
			f.uvs = append(f.uvs, uv[0], uv[1])
		}
		f.artIndexBegin = append(f.artIndexBegin, int32(len(f.vertexIndices)))
		f.artIndexCount = append(f.artIndexCount, int32(len(a.Indices)))
		f.vertexIndices = append(f.vertexIndices, a.Indices...)
		f.artBlend = append(f.artBlend, uint32(a.Blend.Color)|uint32(a.Blend.Alpha)<<8)
		for k, kf := range a.Keyforms {
			if err := f.artKeyform(a, kf, fmt.Sprintf("%s keyform %d", what, k)); err != nil {
				return err
			}
		}
	}

	for i, g := range m.Glues {
		what := fmt.Sprintf("glue %d", i)
		if err := checkID(what, g.ID); err != nil {
			return err
		}
		kb, err := b.add(what, g.Axes, len(g.Keyforms))
		if err != nil {
			return err
		}
		f.glueIDs = append(f.glueIDs, g.ID)
		f.glueKB = append(f.glueKB, int32(kb))
		f.glueKFBegin = append(f.glueKFBegin, int32(len(f.glueKFIntensity)))
		f.glueKFCount = append(f.glueKFCount, int32(len(g.Keyforms)))
		f.glueA = append(f.glueA, g.MeshA)
		f.glueB = append(f.glueB, g.MeshB)
		f.glueInfoBegin = append(f.glueInfoBegin, int32(len(f.glueInfoWeight)))
		f.glueInfoCount = append(f.glueInfoCount, int32(len(g.Points)))
		for _, p := range g.Points {
			f.glueInfoWeight = append(f.glueInfoWeight, p.Weight)
			f.glueInfoVertex = append(f.glueInfoVertex, p.Vertex)
		}
		for _, kf := range g.Keyforms {
			f.glueKFIntensity = append(f.glueKFIntensity, kf.Intensity)
		}
	}

	// Parameters and the bindings that hang off them.
	for i, p := range m.Parameters {
		if err := checkID(fmt.Sprintf("parameter %d", i), p.ID); err != nil {
			return err
		}
		f.paramIDs = append(f.paramIDs, p.ID)
		f.paramMax = append(f.paramMax, p.Max)
		f.paramMin = append(f.paramMin, p.Min)
		f.paramDefault = append(f.paramDefault, p.Default)
		f.paramRepeat = append(f.paramRepeat, boolU32(p.Repeat))
		f.paramDecimals = append(f.paramDecimals, p.DecimalPlaces)
		f.paramType = append(f.paramType, boolU32(p.BlendShape))
	}
	b.emit(f)

	// Blend shapes: their keyforms follow all regular keyforms of their kind
	// (as in the 5.0 sample), kinds in the order of their target arrays.
	bs := newBlendShapes(len(m.Parameters))
	for i := range warps {
		w := warps[i].Warp
		err := addBlendShapes(f, bs, &f.bsWarp, fmt.Sprintf("warp deformer %d", i), i, w.BlendShapes,
			func() int { return len(f.warpKFOpacity) },
			func(kf WarpKeyform, what string) error { return f.warpKeyform(w, kf, what) })
		if err != nil {
			return err
		}
	}
	for i := range m.ArtMeshes {
		a := &m.ArtMeshes[i]
		err := addBlendShapes(f, bs, &f.bsArt, fmt.Sprintf("art mesh %d", i), i, a.BlendShapes,
			func() int { return len(f.artKFOpacity) },
			func(kf ArtMeshKeyform, what string) error { return f.artKeyform(a, kf, what) })
		if err != nil {
			return err
		}
	}
	for i, p := range m.Parts {
		err := addBlendShapes(f, bs, &f.bsPart, fmt.Sprintf("part %d", i), i, p.BlendShapes,
			func() int { return len(f.partKFDrawOrder) },
			func(kf PartKeyform, _ string) error {
				f.partKFDrawOrder = append(f.partKFDrawOrder, kf.DrawOrder)
				return nil
			})
		if err != nil {
			return err
		}
	}
	for i := range rots {
		r := rots[i].Rotation
		err := addBlendShapes(f, bs, &f.bsRot, fmt.Sprintf("rotation deformer %d", i), i, r.BlendShapes,
			func() int { return len(f.rotKFOpacity) },
			func(kf RotationKeyform, _ string) error {
				f.rotKeyform(kf)
				return nil
			})
		if err != nil {
			return err
		}
	}
	for i, g := range m.Glues {
		err := addBlendShapes(f, bs, &f.bsGlue, fmt.Sprintf("glue %d", i), i, g.BlendShapes,
			func() int { return len(f.glueKFIntensity) },
			func(kf GlueKeyform, _ string) error {
				f.glueKFIntensity = append(f.glueKFIntensity, kf.Intensity)
				return nil
			})
		if err != nil {
			return err
		}
	}
	bs.emit(f)

	// Parameter extension keys follow the bindings' keys (as in the 4.2+
	// samples).
	for _, p := range m.Parameters {
		f.paramKeysBegin = append(f.paramKeysBegin, int32(len(f.keys)))
		f.paramKeysCount = append(f.paramKeysCount, int32(len(p.Keys)))
		f.keys = append(f.keys, p.Keys...)
	}

	if err := f.fillOffscreens(m); err != nil {
		return err
	}
	f.fillColors(m, warps, rots)

	// Masks: offscreens' first, then art meshes' (as in the 5.3 sample).
	for _, o := range m.Offscreens {
		f.offMaskBegin = append(f.offMaskBegin, int32(len(f.masks)))
		f.offMaskCount = append(f.offMaskCount, int32(len(o.Masks)))
		f.masks = append(f.masks, o.Masks...)
	}
	for _, a := range m.ArtMeshes {
		f.artMaskBegin = append(f.artMaskBegin, int32(len(f.masks)))
		f.artMaskCount = append(f.artMaskCount, int32(len(a.Masks)))
		f.masks = append(f.masks, a.Masks...)
	}

	return f.fillDrawOrderGroups(m)
}

func (f *file) warpKeyform(w *WarpDeformer, kf WarpKeyform, what string) error {
	if n := (w.Rows + 1) * (w.Columns + 1); len(kf.Positions) != n {
		return fmt.Errorf("%s: %d positions, the %dx%d grid has %d", what, len(kf.Positions), w.Rows, w.Columns, n)
	}
	f.warpKFOpacity = append(f.warpKFOpacity, kf.Opacity)
	f.warpKFPosBegin = append(f.warpKFPosBegin, int32(len(f.positions)))
	for _, p := range kf.Positions {
		f.positions = append(f.positions, p[0], p[1])
	}
	return nil
}

func (f *file) rotKeyform(kf RotationKeyform) {
	f.rotKFOpacity = append(f.rotKFOpacity, kf.Opacity)
	f.rotKFAngle = append(f.rotKFAngle, kf.Angle)
	f.rotKFOriginX = append(f.rotKFOriginX, kf.OriginX)
	f.rotKFOriginY = append(f.rotKFOriginY, kf.OriginY)
	f.rotKFScale = append(f.rotKFScale, kf.Scale)
	f.rotKFReflectX = append(f.rotKFReflectX, boolU32(kf.ReflectX))
	f.rotKFReflectY = append(f.rotKFReflectY, boolU32(kf.ReflectY))
}

func (f *file) artKeyform(a *ArtMesh, kf ArtMeshKeyform, what string) error {
	if len(kf.Positions) != len(a.UVs) {
		return fmt.Errorf("%s: %d positions for %d vertices (UVs)", what, len(kf.Positions), len(a.UVs))
	}
	f.artKFOpacity = append(f.artKFOpacity, kf.Opacity)
	f.artKFDrawOrder = append(f.artKFDrawOrder, kf.DrawOrder)
	f.artKFPosBegin = append(f.artKFPosBegin, int32(len(f.positions)))
	for _, p := range kf.Positions {
		f.positions = append(f.positions, p[0], p[1])
	}
	return nil
}

// blendShapes collects the blend-shape parameter bindings (grouped by
// parameter, deduplicated) while the keyform bindings are added.
type blendShapes struct {
	params   int
	perParam [][]string
	binding  map[string]BlendShape[struct{}]
	bskbKey  []string // per blend-shape keyform binding, its parameter binding
}

func newBlendShapes(params int) *blendShapes {
	return &blendShapes{params: params, perParam: make([][]string, params), binding: map[string]BlendShape[struct{}]{}}
}

// addBlendShapes appends the blend shapes of one target object: its
// keyforms (through addKeyform), one blend-shape keyform binding each with
// its constraints, and the target entry.
func addBlendShapes[K any](f *file, bs *blendShapes, t *bsTargets, what string, target int, shapes []BlendShape[K], next func() int, addKeyform func(K, string) error) error {
	if len(shapes) == 0 {
		return nil
	}
	t.target = append(t.target, int32(target))
	t.kbBegin = append(t.kbBegin, int32(len(bs.bskbKey)))
	t.kbCount = append(t.kbCount, int32(len(shapes)))
	for s, sh := range shapes {
		what := fmt.Sprintf("%s blend shape %d", what, s)
		if sh.Parameter < 0 || sh.Parameter >= bs.params {
			return fmt.Errorf("%s: parameter %d out of range [0,%d)", what, sh.Parameter, bs.params)
		}
		key := keyOf(sh.Parameter, sh.Keys, sh.BaseKey)
		if _, ok := bs.binding[key]; !ok {
			bs.binding[key] = BlendShape[struct{}]{Parameter: sh.Parameter, Keys: sh.Keys, BaseKey: sh.BaseKey}
			bs.perParam[sh.Parameter] = append(bs.perParam[sh.Parameter], key)
		}
		bs.bskbKey = append(bs.bskbKey, key)
		f.bskbKFBegin = append(f.bskbKFBegin, int32(next()))
		for k, kf := range sh.Keyforms {
			if err := addKeyform(kf, fmt.Sprintf("%s keyform %d", what, k)); err != nil {
				return err
			}
		}
		f.bskbKFCount = append(f.bskbKFCount, int32(len(sh.Keyforms)))
		f.bskbCIBegin = append(f.bskbCIBegin, int32(len(f.bsConstraintIndices)))
		f.bskbCICount = append(f.bskbCICount, int32(len(sh.Constraints)))
		for c, con := range sh.Constraints {
			if len(con.Keys) != len(con.Weights) {
				return fmt.Errorf("%s constraint %d: %d keys, %d weights", what, c, len(con.Keys), len(con.Weights))
			}
			f.bsConstraintIndices = append(f.bsConstraintIndices, int32(len(f.bscParam)))
			f.bscParam = append(f.bscParam, int32(con.Parameter))
			f.bscValBegin = append(f.bscValBegin, int32(len(f.bscvKey)))
			f.bscValCount = append(f.bscValCount, int32(len(con.Keys)))
			f.bscvKey = append(f.bscvKey, con.Keys...)
			f.bscvWeight = append(f.bscvWeight, con.Weights...)
		}
	}
	return nil
}

// emit writes the blend-shape parameter bindings, their keys and the
// keyform bindings' references to them.
func (bs *blendShapes) emit(f *file) {
	index := map[string]int32{}
	for p := range bs.params {
		f.paramBSPBBegin = append(f.paramBSPBBegin, int32(len(f.bspbKeysBegin)))
		f.paramBSPBCount = append(f.paramBSPBCount, int32(len(bs.perParam[p])))
		for _, k := range bs.perParam[p] {
			sh := bs.binding[k]
			index[k] = int32(len(f.bspbKeysBegin))
			f.bspbKeysBegin = append(f.bspbKeysBegin, int32(len(f.keys)))
			f.bspbKeysCount = append(f.bspbKeysCount, int32(len(sh.Keys)))
			f.bspbBase = append(f.bspbBase, sh.BaseKey)
			f.keys = append(f.keys, sh.Keys...)
		}
	}
	for _, k := range bs.bskbKey {
		f.bskbPB = append(f.bskbPB, index[k])
	}
}

func (f *file) fillOffscreens(m *Model) error {
	f.partOffscreen = make([]int32, len(m.Parts))
	for i := range f.partOffscreen {
		f.partOffscreen[i] = -1
	}
	f.partKFOffscreenKF = make([]int32, len(f.partKFDrawOrder))
	for i := range f.partKFOffscreenKF {
		f.partKFOffscreenKF[i] = -1
	}
	for i, o := range m.Offscreens {
		what := fmt.Sprintf("offscreen %d", i)
		if o.OwnerPart < 0 || o.OwnerPart >= len(m.Parts) {
			return fmt.Errorf("%s: owner part %d out of range [0,%d)", what, o.OwnerPart, len(m.Parts))
		}
		if f.partOffscreen[o.OwnerPart] >= 0 {
			return fmt.Errorf("%s: part %d already has offscreen %d", what, o.OwnerPart, f.partOffscreen[o.OwnerPart])
		}
		owner := m.Parts[o.OwnerPart]
		if len(o.Keyforms) != len(owner.Keyforms) {
			return fmt.Errorf("%s: %d keyforms, owner part %d has %d", what, len(o.Keyforms), o.OwnerPart, len(owner.Keyforms))
		}
		f.partOffscreen[o.OwnerPart] = int32(i)
		f.offOwner = append(f.offOwner, int32(o.OwnerPart))
		f.offFlags = append(f.offFlags, flags(0, o.DoubleSided, o.InvertedMask))
		f.offBlend = append(f.offBlend, uint32(o.Blend.Color)|uint32(o.Blend.Alpha)<<8)
		for k, kf := range o.Keyforms {
			f.partKFOffscreenKF[int(f.partKFBegin[o.OwnerPart])+k] = int32(len(f.offKFOpacity))
			f.offKFOpacity = append(f.offKFOpacity, kf.Opacity)
		}
	}
	return nil
}

// fillColors lays out the keyform colours: offscreens' first (5.3, as in
// its sample), then warp, rotation and art mesh keyforms in keyform order,
// so an object's colours are contiguous from its 4.2 begin index.
func (f *file) fillColors(m *Model, warps, rots []*Deformer) {
	if f.version < V42 {
		return
	}
	for _, o := range m.Offscreens {
		for _, kf := range o.Keyforms {
			i := f.color(kf.Colors)
			f.offKFMul, f.offKFScr = append(f.offKFMul, i), append(f.offKFScr, i)
		}
	}
	kinds := []struct {
		colors    []*Colors
		mul, scr  *[]int32
		begin     *[]int32
		objBegins []int32
	}{
		{warpColors(warps), &f.warpKFMul, &f.warpKFScr, &f.warpColorBegin, f.warpKFBegin},
		{rotColors(rots), &f.rotKFMul, &f.rotKFScr, &f.rotColorBegin, f.rotKFBegin},
		{artColors(m.ArtMeshes), &f.artKFMul, &f.artKFScr, &f.artColorBegin, f.artKFBegin},
	}
	for _, k := range kinds {
		base := int32(len(f.mulR))
		for _, c := range k.colors {
			i := f.color(c)
			*k.mul, *k.scr = append(*k.mul, i), append(*k.scr, i)
		}
		for _, b := range k.objBegins {
			*k.begin = append(*k.begin, base+b)
		}
	}
}

// warpColors lists the warp keyforms' colours in keyform array order
// (regular keyforms, then blend-shape keyforms).
func warpColors(warps []*Deformer) []*Colors {
	var c []*Colors
	for _, d := range warps {
		for _, kf := range d.Warp.Keyforms {
			c = append(c, kf.Colors)
		}
	}
	for _, d := range warps {
		for _, sh := range d.Warp.BlendShapes {
			for _, kf := range sh.Keyforms {
				c = append(c, kf.Colors)
			}
		}
	}
	return c
}

func rotColors(rots []*Deformer) []*Colors {
	var c []*Colors
	for _, d := range rots {
		for _, kf := range d.Rotation.Keyforms {
			c = append(c, kf.Colors)
		}
	}
	for _, d := range rots {
		for _, sh := range d.Rotation.BlendShapes {
			for _, kf := range sh.Keyforms {
				c = append(c, kf.Colors)
			}
		}
	}
	return c
}

func artColors(arts []ArtMesh) []*Colors {
	var c []*Colors
	for _, a := range arts {
		for _, kf := range a.Keyforms {
			c = append(c, kf.Colors)
		}
	}
	for _, a := range arts {
		for _, sh := range a.BlendShapes {
			for _, kf := range sh.Keyforms {
				c = append(c, kf.Colors)
			}
		}
	}
	return c
}

// fillDrawOrderGroups writes the groups and their objects. A group's total
// count is the number of objects it draws: in every sample a group's total
// is its art-mesh objects plus its part objects' groups' totals, plus (5.3,
// Ren) one for each of its part objects whose part has an offscreen.
func (f *file) fillDrawOrderGroups(m *Model) error {
	const unknown, visiting = -1, -2
	total := make([]int32, len(m.DrawOrderGroups))
	for i := range total {
		total[i] = unknown
	}
	var count func(g int) (int32, error)
	count = func(g int) (int32, error) {
		switch total[g] {
		case visiting:
			return 0, fmt.Errorf("draw-order group %d contains itself", g)
		case unknown:
		default:
			return total[g], nil
		}
		total[g] = visiting
		n := int32(0)
		for _, o := range m.DrawOrderGroups[g].Objects {
			if !o.Part {
				n++
				continue
			}
			if o.Self >= 0 && int(o.Self) < len(m.DrawOrderGroups) {
				c, err := count(int(o.Self))
				if err != nil {
					return 0, err
				}
				n += c
			}
			if f.version >= V53 && o.Index >= 0 && int(o.Index) < len(f.partOffscreen) && f.partOffscreen[o.Index] >= 0 {
				n++ // the part's offscreen is drawn as one more object
			}
		}
		total[g] = n
		return n, nil
	}
	for g, grp := range m.DrawOrderGroups {
		n, err := count(g)
		if err != nil {
			return err
		}
		f.dogBegin = append(f.dogBegin, int32(len(f.dogoType)))
		f.dogCount = append(f.dogCount, int32(len(grp.Objects)))
		f.dogTotal = append(f.dogTotal, n)
		f.dogMax = append(f.dogMax, grp.MaxDrawOrder)
		f.dogMin = append(f.dogMin, grp.MinDrawOrder)
		for _, o := range grp.Objects {
			f.dogoType = append(f.dogoType, boolU32(o.Part))
			f.dogoIndex = append(f.dogoIndex, o.Index)
			f.dogoSelf = append(f.dogoSelf, o.Self)
		}
	}
	return nil
}
