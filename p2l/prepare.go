package p2l

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// A Model is prepared for evaluation once: references are checked, grids get
// their coordinate lookup tables, blend-shape targets are turned into
// differences from the default pose, and the part tree is flattened. The
// result is kept in the Model and shared by every Rig of it.

// prep returns the prepared form of m, building it on first use. Safe for
// concurrent use. A nil model has a prepared form that cannot evaluate.
func (m *Model) prep() *prepared {
	if m == nil {
		return nilPrepared
	}
	m.prepOnce.Do(func() {
		if err := recovered("preparing the model", func() error { m.prepared = prepare(m); return nil }); err != nil {
			m.prepared = &prepared{err: err}
		}
	})
	return m.prepared
}

// recovered runs f and turns a panic inside it into an error naming what
// was being done. Work done once per model (sync.Once) runs through it: a
// Once whose function panics counts as done, so the panic must not leave a
// half-built result behind.
func recovered(what string, f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("p2l: %s failed: %v", what, v)
		}
	}()
	return f()
}

// nilPrepared is the prepared form of a nil *Model: empty lookups and an
// error (the lookups of a nil model answer as an empty model's).
var nilPrepared = &prepared{err: errNilModel}

// errNilModel is the error of a nil *Model's rigs, Validate and
// PrepareAdvanced.
var errNilModel = errors.New("p2l: nil *Model")

// logger returns the logger of the model's rig failures, or nil.
func (m *Model) logger() *slog.Logger {
	if m == nil {
		return nil
	}
	return m.log
}

// Dir returns the directory of the file m was loaded from by LoadFile or
// LoadFS, where its external texture pages resolve; nil for a model from
// Load or built in code. Package p2l/texture uses it when given no FS.
func (m *Model) Dir() fs.FS {
	if m == nil {
		return nil
	}
	return m.dir
}

// Logger returns the logger m was loaded with (WithLogger), or nil. Rig
// failures of m go there; renderers send undecodable texture pages there
// when they are given no logger of their own.
func (m *Model) Logger() *slog.Logger { return m.logger() }

// props are the channel-driven properties shared by deformers, meshes and
// parts. Each record uses the ones the spec gives it; the others stay zero.
type props struct {
	drawOrder, opacity float64
	mul, scr           [3]float64
	flipX, flipY       float64
}

func (p *props) addScaled(d *props, w float64) {
	p.drawOrder += w * d.drawOrder
	p.opacity += w * d.opacity
	for c := 0; c < 3; c++ {
		p.mul[c] += w * d.mul[c]
		p.scr[c] += w * d.scr[c]
	}
	p.flipX += w * d.flipX
	p.flipY += w * d.flipY
}

func (p props) sub(q props) props {
	p.addScaled(&q, -1)
	return p
}

// cobj is the channel and blend-shape part common to every evaluated record.
type cobj struct {
	static props
	ch     chanSet
	binds  []cbind
	diffs  [][]props // per binding, per key: target − value at the default pose
}

// evalChannels computes the properties without blend shapes.
func (o *cobj) evalChannels(cur []float32, sc []corner) props {
	p := o.static
	for k := range o.ch.list {
		ch := &o.ch.list[k]
		v, ok := ch.eval(cur, sc)
		if !ok {
			continue
		}
		switch ch.id {
		case p2lrt.ChannelDrawOrder:
			p.drawOrder = v[0]
		case p2lrt.ChannelOpacity:
			p.opacity = v[0]
		case p2lrt.ChannelMultiply:
			p.mul = v
		case p2lrt.ChannelScreen:
			p.scr = v
		case p2lrt.ChannelFlipX:
			p.flipX = v[0]
		case p2lrt.ChannelFlipY:
			p.flipY = v[0]
		}
	}
	return p
}

func colorProps(c p2lrt.Color) [3]float64 {
	return [3]float64{float64(c[0]), float64(c[1]), float64(c[2])}
}

func flagValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// cdef is a deformer prepared for evaluation.
type cdef struct {
	kind    p2lrt.DeformerKind
	parent  int32
	nearRot int32 // nearest rotation deformer above, −1 for none
	obj     cobj
	reads   paramMask // parameters its evaluation reads (paramSet)

	// Warp.
	cols, rows int
	bilinear   bool
	g          cgrid
	wcells     [][]float32
	gdiff      [][][]float32 // per binding, per key: point differences (nil: no contribution)
	ptOff      int           // offset of the canvas grid in Rig.warpPts
	npts       int           // grid points
	cellOff    int           // offset of its cell table in Rig.tris (warpCells), −1 for none (chooseCellTables)
	// Lines of the extended lattice along u and v (ringLines), for points
	// outside the unit square.
	uLines, vLines []float64

	// Rotation.
	base   float32
	rcells []p2lrt.RotationKey
	rdiff  [][][4]float32 // per binding, per key: x, y, angle, scale differences
}

// cmesh is a mesh prepared for evaluation.
type cmesh struct {
	parent int32
	nv     int
	geom   bool
	g      cgrid
	cells  [][]float32
	obj    cobj
	gdiff  [][][]float32 // per binding, per key: offset differences
	vOff   int           // offset in the vertex buffers (floats)
	hidden bool          // its own visible flag is off
	glued  bool          // some glue moves its vertices
	chain  []int32       // ancestor parts, nearest first
	reads  paramMask     // parameters its geometry reads (paramSet): keyforms, bindings
	// chanReads are the parameters its properties read (paramSet):
	// channels, bindings; evalMeshes keeps them when none moved.
	chanReads paramMask
	gcomp     int32 // its glue component (prepared.gcomps), −1 when not glued
	plOff     int   // offset of its vertices in Rig.place (a warp's child), −1 for none
}

type cpart struct {
	obj    cobj
	parent int32
	// reads are the parameters its properties and its group composite
	// read (paramSet): its channels' and bindings', and those of the
	// draw-tree group's channels (groupSource).
	reads paramMask
}

type cglue struct {
	a, b      int32
	intensity float32
	pairs     []p2lrt.GluePair
	ch        chanSet
	comp      int32 // its component in prepared.gcomps
}

// gcomp is a glue component: meshes joined by glues, directly or through
// other glued meshes. Glue moves vertices of a component's meshes from the
// values the others had before glue, so they are computed all or none.
type gcomp struct {
	meshes []int32
	reads  paramMask // parameters its glues' intensities read
}

// cgroup is a draw-tree group; the tree is flattened with children stored as
// (group, mesh) pairs, group −1 for a mesh child.
type cgroup struct {
	part     int32
	static   float64
	isolated bool
	children []cnode
	sortOff  int // offset of this group's children in Rig.sortBuf
	// lo, hi: Cubism evaluation clamps its children's rounded draw orders
	// to them (MetaDrawOrderRanges; ±MaxFloat64, finite so that a rig's
	// state stays finite: no clamp).
	lo, hi float64
}

type cnode struct {
	group int32
	mesh  int32
}

// groupSource is what a part's group composite is made of: the static
// composite and the draw-tree group's channels that override it.
type groupSource struct {
	comp  *p2lrt.Composite
	ch    chanSet
	masks []int // mask meshes with part masks expanded, in order, no duplicates
}

// prepared is the evaluation-ready form of a Model.
type prepared struct {
	err error // why the model cannot be evaluated; lookups still work

	// byID: the lookups by id, built on the first lookup (idLookups):
	// preparing and evaluating a model use none of them.
	byIDOnce sync.Once
	byID     *idLookups

	partParent   []int32
	meshPart     []int32
	meshUserData []int32 // index into Model.UserData, −1 for none

	defaults []float32
	defs     []cdef
	meshes   []cmesh
	parts    []cpart
	glues    []cglue
	groups   []cgroup // groups[0] is the root
	gsrc     []groupSource
	gcomps   []gcomp

	vertFloats int // total mesh vertex floats
	warpFloats int // total warp grid floats
	tris       int // total triangles of triangle-interpolated warps (Rig.tris)
	placePts   int // total vertices of meshes whose parent is a warp (Rig.place)
	maxDefPts  int // most points a deformer maps through its parent
	maxLocal   int // largest per-record float scratch
	maxAxes    int
	maxBinds   int // most bindings on one record
	sortLen    int // total draw-group children (sort scratch)

	axes []gridAxis // distinct keyform axes (shareAxes)
	// gridOffs: per distinct keyform grid (cgrid.shared), the offset of its
	// corners in Rig.corners, gridCorners of them in all.
	gridOffs    []int32
	gridCorners int

	adv advModel // advanced-mode data, built on first use (advrig.go)

	// Cubism evaluation (Model.Evaluation, evaluation.go).
	cubism bool
	snap   float32 // key snapping distance of every grid (cgrid.snap)
	cub    cubismPrep

	// spare is the rig of the model's trial evaluation, kept for the
	// first NewRig (keepTrialRig); nil once taken.
	spare atomic.Pointer[Rig]

	// share holds what records share while the model is built (build
	// drops it at the end).
	share *buildShare
}

// buildShare is what records of one model share while it is prepared:
// tables that depend only on what records have in common, built once.
type buildShare struct {
	// grids: records whose keyform grids are the same — the same axes and
	// cell coordinates, not equal copies: a lowered moc's records over one
	// keyform binding share them — share one compiled grid (compileGrid's
	// tables are not written once built). Keyed by the first axis.
	grids map[*p2lrt.Axis]sharedGrid
	// lines: the extended lattice lines of a warp dimension (ringLines),
	// by cell count.
	lines map[int][]float64
	// masks hands out the records' parameter masks (newParamMask) from
	// one array, cells the records' keyform cell lists, chains their
	// ancestor parts.
	masks  paramMask
	cells  [][]float32
	chains []int32
	// chans and chanVals hand out the records' compiled channels and
	// their cell values (compileChannels), from arrays build sizes for
	// the deformers', parts', meshes' and glues' channels.
	chans    []cchan
	chanVals []p2lrt.ChannelValue
}

// chanList returns an empty list with room for n compiled channels,
// carved from the shared array when it has room (s may be nil).
func (s *buildShare) chanList(n int) []cchan {
	if s == nil || cap(s.chans)-len(s.chans) < n {
		return make([]cchan, 0, n)
	}
	k := len(s.chans)
	s.chans = s.chans[:k+n]
	return s.chans[k : k : k+n]
}

// channelValues returns room for n channel cell values, carved from the
// shared array when it has room (s may be nil).
func (s *buildShare) channelValues(n int) []p2lrt.ChannelValue {
	if s == nil || cap(s.chanVals)-len(s.chanVals) < n {
		return make([]p2lrt.ChannelValue, n)
	}
	k := len(s.chanVals)
	s.chanVals = s.chanVals[:k+n]
	return s.chanVals[k : k+n : k+n]
}

// cellList returns a zeroed list of n keyform cells, carved from the
// array build sized for all of them.
func (s *buildShare) cellList(n int) [][]float32 {
	if cap(s.cells)-len(s.cells) < n {
		return make([][]float32, n)
	}
	k := len(s.cells)
	s.cells = s.cells[:k+n]
	return s.cells[k : k+n : k+n]
}

// sharedGrid is a compiled grid and the coordinates of the cells it was
// compiled from.
type sharedGrid struct {
	coords [][]uint16
	g      cgrid
}

// compileGrid is compileGrid, sharing the result between grids with the
// same axes and coordinates (buildShare.grids). A nil s shares nothing.
func (s *buildShare) compileGrid(axes []p2lrt.Axis, n int, coord func(int) []uint16, np int, snap float32) (cgrid, error) {
	if s == nil || len(axes) == 0 {
		return compileGrid(axes, n, coord, np, snap)
	}
	key := &axes[0]
	if e, ok := s.grids[key]; ok && len(e.coords) == n && len(e.g.params) == len(axes) && sameCoords(e.coords, coord) {
		return e.g, nil
	}
	g, err := compileGrid(axes, n, coord, np, snap)
	if err == nil {
		if s.grids == nil {
			s.grids = make(map[*p2lrt.Axis]sharedGrid)
		}
		e := sharedGrid{coords: make([][]uint16, n), g: g}
		for k := range e.coords {
			e.coords[k] = coord(k)
		}
		s.grids[key] = e
	}
	return g, err
}

// sameCoords reports whether the cells' coordinates coord(k) are the
// slices cs (the same memory, not equal values).
func sameCoords(cs [][]uint16, coord func(int) []uint16) bool {
	for k, x := range cs {
		y := coord(k)
		if len(x) != len(y) || len(x) > 0 && &x[0] != &y[0] {
			return false
		}
	}
	return true
}

// ringLines is ringLines, shared between warps of the same size.
func (s *buildShare) ringLines(n int) []float64 {
	l, ok := s.lines[n]
	if !ok {
		if s.lines == nil {
			s.lines = make(map[int][]float64)
		}
		l = ringLines(n)
		s.lines[n] = l
	}
	return l
}

// readMask is the set of the parameters that the grid g (nil: none), o's
// bindings (their parameters and limits) and, with channels set, o's
// channels read: an evaluation of them whose parameters all hold the
// values of the previous one gives the previous results. The masks of all
// records are carved from a few arrays.
func (s *buildShare) readMask(o *cobj, channels bool, g *cgrid, np int) paramMask {
	w := (np + 63) / 64
	if len(s.masks) < w {
		s.masks = make(paramMask, max(w, 64*w))
	}
	m := s.masks[:w:w]
	s.masks = s.masks[w:]
	if g != nil {
		m.add(g.params)
	}
	if channels {
		for k := range o.ch.list {
			m.add(o.ch.list[k].g.params)
		}
	}
	for b := range o.binds {
		m.set(o.binds[b].param)
		for l := range o.binds[b].limits {
			m.set(o.binds[b].limits[l].param)
		}
	}
	return m
}

// cubismPrep is what Cubism evaluation adds to the prepared form: per
// deformer, mesh and part the range tests of its keyform axes and whether
// the file enables it, per deformer its part.
type cubismPrep struct {
	defRanges, meshRanges, partRanges [][]keyRange
	defOn, meshOn                     []bool // static enabled flags
	defPart                           []int32
	partOrder                         []int32 // parts, parents first
	partDepth                         []int   // ancestors above each part
}

func indexIDs[T any](s []T, id func(*T) string) map[string]int {
	m := make(map[string]int, len(s))
	for i := range s {
		k := id(&s[i])
		if _, dup := m[k]; !dup && k != "" {
			m[k] = i
		}
	}
	return m
}

// idLookups are a model's records by id: the first record of each id.
type idLookups struct {
	param, deformer, part, mesh, glue, clip, expr, hit map[string]int
}

// ids returns the lookups by id of m's records, building them on first
// use (once per prepared form, so shared by the models that share it).
func (m *Model) ids() *idLookups {
	p := m.prep()
	p.byIDOnce.Do(func() {
		f := m.file
		p.byID = &idLookups{
			param:    indexIDs(f.Parameters, func(x *p2lrt.Parameter) string { return x.ID }),
			deformer: indexIDs(f.Deformers, func(x *p2lrt.Deformer) string { return x.ID }),
			part:     indexIDs(f.Parts, func(x *p2lrt.Part) string { return x.ID }),
			mesh:     indexIDs(f.Meshes, func(x *p2lrt.Mesh) string { return x.ID }),
			glue:     indexIDs(f.Glues, func(x *p2lrt.Glue) string { return x.ID }),
			clip:     indexIDs(f.Clips, func(x *p2lrt.Clip) string { return x.ID }),
			expr:     indexIDs(f.Expressions, func(x *p2lrt.Expression) string { return x.ID }),
			hit:      indexIDs(f.HitAreas, func(x *p2lrt.HitArea) string { return x.ID }),
		}
	})
	return p.byID
}

// prepare builds the prepared form; a model that cannot be evaluated yields
// a prepared value with err set (its lookups still work).
func prepare(m *Model) (p *prepared) {
	p = &prepared{}
	p.partParent = make([]int32, len(m.file.Parts))
	p.meshPart = make([]int32, len(m.file.Meshes))
	p.meshUserData = make([]int32, len(m.file.Meshes))
	for i := range p.partParent {
		p.partParent[i] = -1
	}
	for i := range p.meshPart {
		p.meshPart[i] = -1
		p.meshUserData[i] = -1
	}
	// A part or mesh listed by several parts belongs to the last of them
	// (ffi.rs Model::new, pose.rs PosePlayer::new).
	for pi := range m.file.Parts {
		for _, c := range m.file.Parts[pi].Children {
			switch {
			case c.Kind == p2lrt.ChildPart && c.Index >= 0 && c.Index < len(m.file.Parts):
				p.partParent[c.Index] = int32(pi)
			case c.Kind == p2lrt.ChildMesh && c.Index >= 0 && c.Index < len(m.file.Meshes):
				p.meshPart[c.Index] = int32(pi)
			}
		}
	}
	for i := len(m.file.UserData) - 1; i >= 0; i-- {
		u := m.file.UserData[i]
		if u.Kind == 0 && u.Target >= 0 && u.Target < len(m.file.Meshes) {
			p.meshUserData[u.Target] = int32(i)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			p.err = fmt.Errorf("p2l: preparing the model failed: %v", r)
		}
	}()
	p.err = p.build(m)
	return p
}

func (p *prepared) build(m *Model) error {
	if err := checkEvalWork(m); err != nil {
		return err
	}
	p.share = &buildShare{}
	defer func() { p.share = nil }()
	cells := 0 // keyform cells of the warps and meshes (compileKeyforms)
	for i := range m.file.Deformers {
		if w := m.file.Deformers[i].Warp; w != nil && w.Keyforms != nil {
			cells += len(w.Keyforms.Cells)
		}
	}
	for i := range m.file.Meshes {
		if k := m.file.Meshes[i].Keyforms; k != nil {
			cells += len(k.Cells)
		}
	}
	p.share.cells = make([][]float32, 0, cells)
	nch, nvals := 0, 0 // the records' channels and their cells
	count := func(chs []p2lrt.Channel) {
		nch += len(chs)
		for i := range chs {
			if g := chs[i].Grid; g != nil {
				nvals += len(g.Cells)
			}
		}
	}
	for i := range m.file.Deformers {
		count(m.file.Deformers[i].Channels)
	}
	for i := range m.file.Parts {
		count(m.file.Parts[i].Channels)
	}
	for i := range m.file.Meshes {
		count(m.file.Meshes[i].Channels)
	}
	for i := range m.file.Glues {
		count(m.file.Glues[i].Channels)
	}
	p.share.chans = make([]cchan, 0, nch)
	p.share.chanVals = make([]p2lrt.ChannelValue, 0, nvals)
	np := len(m.file.Parameters)
	p.cubism = m.Evaluation() == EvaluationCubism
	p.snap = snapEpsilon
	if p.cubism {
		p.snap = 0 // the Core blends keyforms without snapping (moc3-rs key_segment)
	}
	p.defaults = make([]float32, np)
	for i, pr := range m.file.Parameters {
		p.defaults[i] = clampParam(&pr, pr.Default)
	}
	// Corner scratch for the blends at the defaults: a grid whose values
	// all sit on keys blends one corner; weights grows it for more.
	sc := make([]corner, 0, 64)

	p.defs = make([]cdef, len(m.file.Deformers))
	for i := range m.file.Deformers {
		if err := p.buildDeformer(m, i, sc); err != nil {
			return recordFail("DEFM", "deformer", i, m.file.Deformers[i].ID, "", "%v", err)
		}
	}
	p.parts = make([]cpart, len(m.file.Parts))
	for i := range m.file.Parts {
		if err := p.buildPart(m, i, sc); err != nil {
			return recordFail("PART", "part", i, m.file.Parts[i].ID, "", "%v", err)
		}
	}
	p.meshes = make([]cmesh, len(m.file.Meshes))
	for i := range m.file.Meshes {
		if err := p.buildMesh(m, i, sc); err != nil {
			return recordFail("MESH", "mesh", i, m.file.Meshes[i].ID, "", "%v", err)
		}
	}
	p.glues = make([]cglue, len(m.file.Glues))
	for i := range m.file.Glues {
		if err := p.buildGlue(m, i); err != nil {
			return recordFail("GLUE", "glue", i, m.file.Glues[i].ID, "", "%v", err)
		}
	}
	p.buildGlueComponents(len(m.file.Parameters))
	p.chooseCellTables()
	for i := range p.defs {
		c := &p.defs[i]
		c.reads = p.share.readMask(&c.obj, true, &c.g, np)
	}
	for i := range p.meshes {
		c := &p.meshes[i]
		c.reads = p.share.readMask(&c.obj, false, &c.g, np)
		c.chanReads = p.share.readMask(&c.obj, true, nil, np)
	}
	p.shareAxes()
	if err := p.buildDraw(m); err != nil {
		return &recordError{tag: "DRAW", msg: "p2l: draw tree: " + err.Error()}
	}
	for i := range p.parts {
		c := &p.parts[i]
		c.reads = p.share.readMask(&c.obj, true, nil, np)
		for k := range p.gsrc[i].ch.list {
			c.reads.add(p.gsrc[i].ch.list[k].g.params)
		}
	}
	if p.cubism {
		p.buildCubism(m)
	}
	for i := range m.file.HitAreas {
		for _, mi := range m.file.HitAreas[i].Meshes {
			if mi < 0 || mi >= len(m.file.Meshes) {
				return recordFail("HITA", "hit area", i, m.file.HitAreas[i].ID, "meshes", "mesh %d out of range", mi)
			}
		}
	}
	return nil
}

// buildObj prepares a record's static properties and channels.
func (p *prepared) buildObj(o *cobj, static props, chs []p2lrt.Channel, np int) error {
	o.static = static
	var err error
	if o.ch, err = compileChannels(chs, np, p.snap, p.share); err != nil {
		return err
	}
	p.maxAxes = max(p.maxAxes, o.ch.maxAxes())
	return nil
}

// addBinding appends a binding whose per-key property targets are given.
func (p *prepared) addBinding(o *cobj, b cbind, targets []props, sc []corner) {
	def := o.evalChannels(p.defaults, sc)
	d := make([]props, len(targets))
	for k := range targets {
		if b.present[k] && k != b.neutral {
			d[k] = targets[k].sub(def)
		}
	}
	o.binds = append(o.binds, b)
	o.diffs = append(o.diffs, d)
	p.maxBinds = max(p.maxBinds, len(o.binds))
}

// compileKeyforms compiles a keyform grid whose cells each hold n floats
// (a warp's grid points or a mesh's vertex offsets, x,y interleaved) or
// none: an empty cell contributes nothing, like a missing one (eval.rs zips
// over it). Every cell's size is checked, so evaluation can index without
// checks.
func (p *prepared) compileKeyforms(kf *p2lrt.Grid[[]float32], n, np int) (cgrid, [][]float32, error) {
	g, err := p.share.compileGrid(kf.Axes, len(kf.Cells), func(k int) []uint16 { return kf.Cells[k].Coord }, np, p.snap)
	if err != nil {
		return cgrid{}, nil, err
	}
	p.maxAxes = max(p.maxAxes, len(g.params))
	cells := p.share.cellList(len(kf.Cells))
	for k, cell := range kf.Cells {
		if len(cell.Value) != n && len(cell.Value) != 0 {
			return cgrid{}, nil, fmt.Errorf("keyform %d has %d floats, want %d", k, len(cell.Value), n)
		}
		if len(cell.Value) != 0 {
			cells[k] = cell.Value
		}
	}
	return g, cells, nil
}

// compileShapeDiffs compiles shape binding bi of a warp or mesh, whose
// shapes carry n floats each: key (absolute points of a warp, deltas of a
// mesh) gives a shape's float vector and its property targets. It returns the
// compiled binding, the per-key targets and, per present non-neutral key, the
// shape's difference from def, the keyform-blended default (nil for the
// neutral and absent keys, which contribute nothing).
func compileShapeDiffs[S any](sb *p2lrt.Binding[S], bi, n int, def []float32, np int, key func(*S) ([]float32, props)) (cbind, []props, [][]float32, error) {
	b, err := compileBind(sb.Parameter, sb.Keys, sb.Neutral, sb.Present, len(sb.Shapes), sb.Limits, np)
	if err != nil {
		return cbind{}, nil, nil, fmt.Errorf("binding %d: %w", bi, err)
	}
	targets := make([]props, len(sb.Shapes))
	gd := make([][]float32, len(sb.Shapes))
	for k := range sb.Shapes {
		var pts []float32
		pts, targets[k] = key(&sb.Shapes[k])
		if !b.present[k] || k == b.neutral || len(pts) == 0 {
			continue // no geometric contribution (empty arrays: eval.rs zips over nothing)
		}
		if len(pts) != n {
			return cbind{}, nil, nil, fmt.Errorf("binding %d key %d has %d floats, want %d", bi, k, len(pts), n)
		}
		// (d − b) as eval.rs computes it every frame, in float32.
		gd[k] = make([]float32, n)
		for j, v := range pts {
			gd[k][j] = v - def[j]
		}
	}
	return b, targets, gd, nil
}

// anyPresent reports whether some key of the warp bindings carries a shape.
func anyPresent(bs []p2lrt.Binding[p2lrt.WarpShape]) bool {
	for _, b := range bs {
		for k, pr := range b.Present {
			if pr && k < len(b.Shapes) && len(b.Shapes[k].Points) > 0 {
				return true
			}
		}
	}
	return false
}

// blendPoints returns the grid blend of per-cell float arrays at cur into a
// new slice of length n (missing cells contribute zero), in float32 as
// eval.rs lattice_points and mesh_local sum them.
func blendPoints(g *cgrid, cells [][]float32, cur []float32, n int, sc []corner) []float32 {
	out := make([]float32, n)
	if cells == nil {
		return out
	}
	for _, c := range g.weights(cur, sc) {
		if c.cell < 0 {
			continue
		}
		w := c.w
		for j, v := range cells[c.cell] {
			out[j] += float32(v * w)
		}
	}
	return out
}

func (p *prepared) buildDeformer(m *Model, i int, sc []corner) error {
	d := &m.file.Deformers[i]
	c := &p.defs[i]
	np := len(m.file.Parameters)
	if d.Parent < -1 || d.Parent >= i {
		return fmt.Errorf("parent %d is not an earlier deformer", d.Parent)
	}
	c.kind = d.Kind
	c.parent = int32(d.Parent)
	c.nearRot = -1
	for a := d.Parent; a >= 0; a = m.file.Deformers[a].Parent {
		if m.file.Deformers[a].Kind == p2lrt.RotationDeformer {
			c.nearRot = int32(a)
			break
		}
	}
	st := props{
		opacity: float64(d.Opacity), mul: colorProps(d.Multiply), scr: colorProps(d.Screen),
		flipX: flagValue(d.Flags&p2lrt.DeformerFlipX != 0), flipY: flagValue(d.Flags&p2lrt.DeformerFlipY != 0),
	}
	if err := p.buildObj(&c.obj, st, d.Channels, np); err != nil {
		return err
	}
	switch d.Kind {
	case p2lrt.WarpDeformer:
		w := d.Warp
		if w == nil || d.Rotation != nil {
			return fmt.Errorf("warp deformer without exactly its warp data")
		}
		if w.Columns < 1 || w.Rows < 1 || w.Columns > 1<<12 || w.Rows > 1<<12 {
			return fmt.Errorf("warp grid %d×%d cells out of range", w.Columns, w.Rows)
		}
		c.cols, c.rows = w.Columns, w.Rows
		if w.Keyforms == nil && !anyPresent(w.Shapes) {
			// Every point sits at the origin (eval.rs lattice_points), so
			// every lattice size maps alike: a collapsed 1×1 lattice costs
			// nothing where the file declared up to 4096×4096 cells
			// without a byte to back them.
			c.cols, c.rows = 1, 1
		}
		c.bilinear = d.Flags&p2lrt.DeformerBilinear != 0
		c.uLines, c.vLines = p.share.ringLines(c.cols), p.share.ringLines(c.rows)
		c.npts = (c.cols + 1) * (c.rows + 1)
		n := 2 * c.npts
		c.ptOff = p.warpFloats
		p.warpFloats += n
		p.maxLocal = max(p.maxLocal, n)
		p.maxDefPts = max(p.maxDefPts, c.npts)
		if w.Keyforms != nil { // without: the zero grid, every point at the origin
			var err error
			if c.g, c.wcells, err = p.compileKeyforms(w.Keyforms, n, np); err != nil {
				return err
			}
		}
		var def []float32 // the keyform blend at the defaults, for the shapes' differences
		if len(w.Shapes) > 0 {
			def = blendPoints(&c.g, c.wcells, p.defaults, n, sc)
		}
		for bi := range w.Shapes {
			b, targets, gd, err := compileShapeDiffs(&w.Shapes[bi], bi, n, def, np, func(s *p2lrt.WarpShape) ([]float32, props) {
				return s.Points, props{opacity: float64(s.Opacity), mul: colorProps(s.Multiply), scr: colorProps(s.Screen)}
			})
			if err != nil {
				return err
			}
			// Flips of a warp are not shape-driven: keep them at the default.
			def := c.obj.evalChannels(p.defaults, sc)
			for k := range targets {
				targets[k].flipX, targets[k].flipY = def.flipX, def.flipY
			}
			p.addBinding(&c.obj, b, targets, sc)
			c.gdiff = append(c.gdiff, gd)
		}
	case p2lrt.RotationDeformer:
		r := d.Rotation
		if r == nil || d.Warp != nil {
			return fmt.Errorf("rotation deformer without exactly its rotation data")
		}
		c.base = r.BaseAngle
		if r.Keyforms != nil {
			var err error
			c.g, err = p.share.compileGrid(r.Keyforms.Axes, len(r.Keyforms.Cells), func(k int) []uint16 { return r.Keyforms.Cells[k].Coord }, np, p.snap)
			if err != nil {
				return err
			}
			p.maxAxes = max(p.maxAxes, len(c.g.params))
			c.rcells = make([]p2lrt.RotationKey, len(r.Keyforms.Cells))
			for k, cell := range r.Keyforms.Cells {
				c.rcells[k] = cell.Value
			}
		}
		def := blendRotation(&c.g, c.rcells, p.defaults, sc)
		defFlips := c.obj.evalChannels(p.defaults, sc)
		for bi := range r.Shapes {
			sb := &r.Shapes[bi]
			b, err := compileBind(sb.Parameter, sb.Keys, sb.Neutral, sb.Present, len(sb.Shapes), sb.Limits, np)
			if err != nil {
				return fmt.Errorf("binding %d: %w", bi, err)
			}
			targets := make([]props, len(sb.Shapes))
			rd := make([][4]float32, len(sb.Shapes))
			for k, s := range sb.Shapes {
				// Shapes do not flip (eval.rs toward leaves the flips):
				// the flip targets stay at the default.
				targets[k] = props{opacity: float64(s.Opacity), mul: colorProps(s.Multiply), scr: colorProps(s.Screen),
					flipX: defFlips.flipX, flipY: defFlips.flipY}
				rd[k] = [4]float32{s.X - def[0], s.Y - def[1], s.Angle - def[2], s.Scale - def[3]}
			}
			p.addBinding(&c.obj, b, targets, sc)
			c.rdiff = append(c.rdiff, rd)
		}
	default:
		return fmt.Errorf("unknown kind %d", d.Kind)
	}
	return nil
}

// blendRotation blends the rotation keyforms at cur (missing cells are the
// all-zero keyform), in float32 as eval.rs pivot_at. Without keyforms
// (cells nil) it is the identity at the origin: x, y, angle 0, scale 1.
func blendRotation(g *cgrid, cells []p2lrt.RotationKey, cur []float32, sc []corner) [4]float32 {
	var v [4]float32
	if cells == nil {
		return [4]float32{0, 0, 0, 1}
	}
	for _, c := range g.weights(cur, sc) {
		if c.cell < 0 {
			continue
		}
		k, w := cells[c.cell], c.w
		v[0] += float32(k.X * w)
		v[1] += float32(k.Y * w)
		v[2] += float32(k.Angle * w)
		v[3] += float32(k.Scale * w)
	}
	return v
}

func (p *prepared) buildPart(m *Model, i int, sc []corner) error {
	pt := &m.file.Parts[i]
	c := &p.parts[i]
	c.parent = p.partParent[i]
	np := len(m.file.Parameters)
	for _, ch := range pt.Children {
		if ch.Kind > p2lrt.ChildMesh {
			return fmt.Errorf("child of unknown kind %d", ch.Kind)
		}
		if ch.Kind == p2lrt.ChildPart && (ch.Index < 0 || ch.Index >= len(m.file.Parts)) {
			return fmt.Errorf("child part %d out of range", ch.Index)
		}
		if ch.Kind == p2lrt.ChildMesh && (ch.Index < 0 || ch.Index >= len(m.file.Meshes)) {
			return fmt.Errorf("child mesh %d out of range", ch.Index)
		}
	}
	st := props{drawOrder: float64(pt.DrawOrder), opacity: float64(pt.Composite.Opacity),
		mul: colorProps(pt.Composite.Multiply), scr: colorProps(pt.Composite.Screen)}
	if err := p.buildObj(&c.obj, st, pt.Channels, np); err != nil {
		return err
	}
	if err := checkComposite(m, &pt.Composite); err != nil {
		return err
	}
	for bi := range pt.Shapes {
		sb := &pt.Shapes[bi]
		b, err := compileBind(sb.Parameter, sb.Keys, sb.Neutral, sb.Present, len(sb.Shapes), sb.Limits, np)
		if err != nil {
			return fmt.Errorf("binding %d: %w", bi, err)
		}
		targets := make([]props, len(sb.Shapes))
		for k, s := range sb.Shapes {
			targets[k] = props{drawOrder: float64(s.DrawOrder), opacity: float64(s.Opacity), mul: colorProps(s.Multiply), scr: colorProps(s.Screen)}
		}
		p.addBinding(&c.obj, b, targets, sc)
	}
	return nil
}

func checkComposite(m *Model, c *p2lrt.Composite) error {
	if c.Blend >= p2lrt.NumBlendModes {
		return fmt.Errorf("composite blend mode %d unknown", c.Blend)
	}
	if c.AlphaBlend >= p2lrt.NumAlphaModes {
		return fmt.Errorf("composite alpha mode %d unknown", c.AlphaBlend)
	}
	for _, mi := range c.MaskMeshes {
		if mi < 0 || mi >= len(m.file.Meshes) {
			return fmt.Errorf("mask mesh %d out of range", mi)
		}
	}
	for _, pi := range c.MaskParts {
		if pi < 0 || pi >= len(m.file.Parts) {
			return fmt.Errorf("mask part %d out of range", pi)
		}
	}
	return nil
}

func (p *prepared) buildMesh(m *Model, i int, sc []corner) error {
	me := &m.file.Meshes[i]
	c := &p.meshes[i]
	np := len(m.file.Parameters)
	if me.Parent < -1 || me.Parent >= len(m.file.Deformers) {
		return fmt.Errorf("parent deformer %d out of range", me.Parent)
	}
	if me.Blend >= p2lrt.NumBlendModes || me.AlphaBlend >= p2lrt.NumAlphaModes {
		return fmt.Errorf("blend mode %d / alpha mode %d unknown", me.Blend, me.AlphaBlend)
	}
	for _, mk := range me.Masks {
		if mk < 0 || mk >= len(m.file.Meshes) {
			return fmt.Errorf("mask mesh %d out of range", mk)
		}
	}
	c.parent = int32(me.Parent)
	c.geom = me.Flags&p2lrt.MeshGeometry != 0
	if len(me.Positions)%2 != 0 {
		return fmt.Errorf("odd number of position floats")
	}
	c.nv = len(me.Positions) / 2
	if !c.geom && c.nv != 0 {
		return fmt.Errorf("positions without the geometry flag")
	}
	if len(me.UVs) != len(me.Positions) {
		return fmt.Errorf("%d uv floats for %d position floats", len(me.UVs), len(me.Positions))
	}
	if len(me.Indices)%3 != 0 {
		return fmt.Errorf("%d indices, not a multiple of 3", len(me.Indices))
	}
	if !m.validated { // else Validate's geometry check proved it
		for _, ix := range me.Indices {
			if int(ix) >= c.nv {
				return fmt.Errorf("index %d out of range (%d vertices)", ix, c.nv)
			}
		}
	}
	n := 2 * c.nv
	c.vOff = p.vertFloats
	p.vertFloats += n
	p.maxLocal = max(p.maxLocal, n)
	c.plOff = -1
	if c.parent >= 0 && p.defs[c.parent].kind == p2lrt.WarpDeformer {
		c.plOff = p.placePts
		p.placePts += c.nv
	}
	// Only the mesh's own flag hides it (eval.rs render_order); parts'
	// visible and sketch flags are information for hosts.
	c.hidden = me.Flags&p2lrt.MeshVisible == 0
	// Ancestor parts, nearest first, stopping where the walk repeats (the
	// children lists need not form a forest; pose.rs PosePlayer::new).
	// The chains of all meshes are appended to one array; each mesh's is
	// its part of it, capped (an array left behind when it grows stays
	// with the chains cut from it).
	chains := p.share.chains
	start := len(chains)
	for a := p.meshPart[i]; a >= 0 && !slices.Contains(chains[start:], a); a = p.partParent[a] {
		chains = append(chains, a)
	}
	if len(chains) > start {
		c.chain = chains[start:len(chains):len(chains)]
	}
	p.share.chains = chains
	st := props{drawOrder: float64(me.DrawOrder), opacity: float64(me.Opacity), mul: colorProps(me.Multiply), scr: colorProps(me.Screen)}
	if err := p.buildObj(&c.obj, st, me.Channels, np); err != nil {
		return err
	}
	if me.Keyforms != nil && c.geom { // without geometry the keyforms move nothing (rig.rs validate)
		var err error
		if c.g, c.cells, err = p.compileKeyforms(me.Keyforms, n, np); err != nil {
			return err
		}
	}
	if len(me.Shapes) == 0 {
		return nil
	}
	// The shapes' differences are from the keyform blend at the defaults
	// (all zero without keyforms: cells nil).
	def := blendPoints(&c.g, c.cells, p.defaults, n, sc)
	for bi := range me.Shapes {
		b, targets, gd, err := compileShapeDiffs(&me.Shapes[bi], bi, n, def, np, func(s *p2lrt.MeshShape) ([]float32, props) {
			return s.Deltas, props{drawOrder: float64(s.DrawOrder), opacity: float64(s.Opacity), mul: colorProps(s.Multiply), scr: colorProps(s.Screen)}
		})
		if err != nil {
			return err
		}
		p.addBinding(&c.obj, b, targets, sc)
		c.gdiff = append(c.gdiff, gd)
	}
	return nil
}

func (p *prepared) buildGlue(m *Model, i int) error {
	g := &m.file.Glues[i]
	if g.MeshA < 0 || g.MeshA >= len(m.file.Meshes) || g.MeshB < 0 || g.MeshB >= len(m.file.Meshes) {
		return fmt.Errorf("meshes %d, %d out of range", g.MeshA, g.MeshB)
	}
	na, nb := p.meshes[g.MeshA].nv, p.meshes[g.MeshB].nv
	for k, pr := range g.Pairs {
		if int(pr.A) >= na || int(pr.B) >= nb {
			return fmt.Errorf("pair %d: vertices %d, %d out of range", k, pr.A, pr.B)
		}
	}
	ch, err := compileChannels(g.Channels, len(m.file.Parameters), p.snap, p.share)
	if err != nil {
		return err
	}
	p.maxAxes = max(p.maxAxes, ch.maxAxes())
	p.meshes[g.MeshA].glued = true
	p.meshes[g.MeshB].glued = true
	p.glues[i] = cglue{a: int32(g.MeshA), b: int32(g.MeshB), intensity: g.Intensity, pairs: g.Pairs, ch: ch}
	return nil
}

// paramMask is a set of parameters as bits, 64 a word: markMoved tests
// whether an object read a moved parameter with one AND a word.
type paramMask []uint64

// newParamMask returns the set of the parameters ps of a model of np.
func newParamMask(ps []int32, np int) paramMask {
	m := make(paramMask, (np+63)/64)
	m.add(ps)
	return m
}

// add adds the parameters ps.
func (m paramMask) add(ps []int32) {
	for _, i := range ps {
		m.set(i)
	}
}

// set adds parameter i.
func (m paramMask) set(i int32) { m[i>>6] |= 1 << (i & 63) }

// meets reports whether m and o share a parameter (same model).
func (m paramMask) meets(o paramMask) bool {
	for k, w := range m {
		if w&o[k] != 0 {
			return true
		}
	}
	return false
}

// buildGlueComponents joins glued meshes into components (union–find over
// the glues) and gives each its meshes, in mesh order, and the parameters
// its glues' intensities read.
func (p *prepared) buildGlueComponents(np int) {
	for i := range p.meshes {
		p.meshes[i].gcomp = -1
	}
	if len(p.glues) == 0 {
		return
	}
	up := make([]int32, len(p.meshes))
	for i := range up {
		up[i] = int32(i)
	}
	root := func(i int32) int32 {
		for up[i] != i {
			up[i] = up[up[i]] // path halving
			i = up[i]
		}
		return i
	}
	for _, g := range p.glues {
		up[root(g.a)] = root(g.b)
	}
	comp := make(map[int32]int32) // root mesh → component
	for i := range p.meshes {
		if !p.meshes[i].glued {
			continue
		}
		k := root(int32(i))
		ci, ok := comp[k]
		if !ok {
			ci = int32(len(p.gcomps))
			comp[k] = ci
			p.gcomps = append(p.gcomps, gcomp{})
		}
		p.meshes[i].gcomp = ci
		p.gcomps[ci].meshes = append(p.gcomps[ci].meshes, int32(i))
	}
	for ci := range p.gcomps {
		p.gcomps[ci].reads = newParamMask(nil, np)
	}
	for gi := range p.glues {
		g := &p.glues[gi]
		g.comp = p.meshes[g.a].gcomp
		c := &p.gcomps[g.comp]
		for k := range g.ch.list {
			c.reads.add(g.ch.list[k].g.params)
		}
	}
}

func (p *prepared) buildDraw(m *Model) error {
	np := len(m.file.Parameters)
	p.gsrc = make([]groupSource, len(m.file.Parts))
	for i := range m.file.Parts {
		p.gsrc[i].comp = &m.file.Parts[i].Composite
	}
	const maxDepth = 1 << 12
	var walk func(g *p2lrt.DrawGroup, depth int) (int32, error)
	walk = func(g *p2lrt.DrawGroup, depth int) (int32, error) {
		if depth > maxDepth {
			return 0, fmt.Errorf("groups nested deeper than %d", maxDepth)
		}
		if g.Part < -1 || g.Part >= len(m.file.Parts) {
			return 0, fmt.Errorf("group part %d out of range", g.Part)
		}
		idx := int32(len(p.groups))
		p.groups = append(p.groups, cgroup{part: int32(g.Part), static: float64(g.DrawOrder), lo: -math.MaxFloat64, hi: math.MaxFloat64})
		// A group is isolated when it names a part and carries a
		// composite (eval.rs render_commands); that composite and the
		// group's channels are the part's group composite, the last such
		// group in tree order winning (ffi.rs Model::new, eval.rs
		// composite_states). The part's groupMode does not decide.
		if g.Part >= 0 && g.Composite != nil {
			p.groups[idx].isolated = true
			if err := checkComposite(m, g.Composite); err != nil {
				return 0, err
			}
			ch, err := compileChannels(g.Channels, np, p.snap, p.share)
			if err != nil {
				return 0, err
			}
			p.maxAxes = max(p.maxAxes, ch.maxAxes())
			p.gsrc[g.Part] = groupSource{comp: g.Composite, ch: ch}
		}
		kids := make([]cnode, 0, len(g.Children))
		for _, ch := range g.Children {
			if ch.Group != nil {
				gi, err := walk(ch.Group, depth+1)
				if err != nil {
					return 0, err
				}
				kids = append(kids, cnode{group: gi, mesh: -1})
				continue
			}
			if ch.Mesh < 0 || ch.Mesh >= len(m.file.Meshes) {
				return 0, fmt.Errorf("mesh %d out of range", ch.Mesh)
			}
			kids = append(kids, cnode{group: -1, mesh: int32(ch.Mesh)})
		}
		p.groups[idx].children = kids
		p.groups[idx].sortOff = p.sortLen
		p.sortLen += len(kids)
		return idx, nil
	}
	if _, err := walk(&m.file.Draw, 0); err != nil {
		return err
	}
	var ex maskExpander
	total := 0
	for i := range p.gsrc {
		if p.gsrc[i].ch.list == nil {
			p.gsrc[i].ch = emptyChanSet()
		}
		p.gsrc[i].masks = ex.expand(m, p.gsrc[i].comp)
		if total += len(p.gsrc[i].masks); total > maxMaskEntries {
			return fmt.Errorf("the group composites' masks, with mask parts expanded to their meshes, name more than %d meshes in all (docs/LIMITS.md)", maxMaskEntries)
		}
	}
	return nil
}

// maxMaskEntries bounds the mask meshes of all group composites together,
// mask parts expanded: every group expands its own mask parts, so without
// it n groups masked by a part of n meshes would take n² entries (a 1.1 MB
// file asked for 1.7 GB) and as many mask draws per frame.
const maxMaskEntries = 1 << 16

func emptyChanSet() chanSet {
	var s chanSet
	for i := range s.at {
		s.at[i] = -1
	}
	return s
}

// maskExpander lists a composite's mask meshes followed by every mesh below
// its mask parts (depth first, in children order), without duplicates. Its
// marks are reused from one composite to the next.
type maskExpander struct {
	stamp              int32
	meshMark, partMark []int32
}

func (e *maskExpander) expand(m *Model, c *p2lrt.Composite) []int {
	if len(e.meshMark) < len(m.file.Meshes) || len(e.partMark) < len(m.file.Parts) {
		e.meshMark, e.partMark = make([]int32, len(m.file.Meshes)), make([]int32, len(m.file.Parts))
	}
	e.stamp++
	var out []int
	add := func(mi int) {
		if e.meshMark[mi] != e.stamp {
			e.meshMark[mi] = e.stamp
			out = append(out, mi)
		}
	}
	for _, mi := range c.MaskMeshes {
		add(mi)
	}
	var walk func(pi int)
	walk = func(pi int) {
		if e.partMark[pi] == e.stamp {
			return
		}
		e.partMark[pi] = e.stamp
		for _, ch := range m.file.Parts[pi].Children {
			if ch.Kind == p2lrt.ChildMesh {
				add(ch.Index)
			} else {
				walk(ch.Index)
			}
		}
	}
	for _, pi := range c.MaskParts {
		walk(pi)
	}
	return out
}

// buildCubism prepares Cubism evaluation's enabled states: the range tests
// of every deformer's, mesh's and part's keyform axes (its keyform grid and
// channel grids: a lowered moc gives an object one keyform binding, so they
// share their axes) and the static enabled flags (a deformer's
// DeformerEnabled, a mesh's MeshVisible).
func (p *prepared) buildCubism(m *Model) {
	eps := keyEpsilons(m)
	var free []keyRange // the records' range tests, carved from a few arrays
	ranges := func(g *cgrid, ch *chanSet) []keyRange {
		n := 0
		if g != nil {
			n += len(g.params)
		}
		for k := range ch.list {
			n += len(ch.list[k].g.params)
		}
		if n == 0 {
			return nil
		}
		if cap(free)-len(free) < n {
			free = make([]keyRange, 0, max(n, 1024))
		}
		out := free[len(free) : len(free) : len(free)+n]
		free = free[:len(free)+n]
		if g != nil {
			out = appendKeyRanges(out, g, eps)
		}
		for k := range ch.list {
			out = appendKeyRanges(out, &ch.list[k].g, eps)
		}
		return out
	}
	// Blend-shape limits combine by their minimum: the Editor manual
	// ("Limit Settings for Blend Shape Weights": with several limits, the
	// smallest is multiplied in; moc3-rs computes the same minimum).
	minLimits := func(o *cobj) {
		for b := range o.binds {
			o.binds[b].minLimit = true
		}
	}
	for i := range p.defs {
		minLimits(&p.defs[i].obj)
	}
	for i := range p.meshes {
		minLimits(&p.meshes[i].obj)
	}
	for i := range p.parts {
		minLimits(&p.parts[i].obj)
	}
	for i, r := range drawOrderRanges(m) {
		if i < len(p.groups) {
			p.groups[i].lo, p.groups[i].hi = r[0], r[1]
		}
	}
	c := &p.cub
	c.defRanges = make([][]keyRange, len(p.defs))
	c.defOn = make([]bool, len(p.defs))
	c.defPart = make([]int32, len(p.defs))
	for i := range p.defs {
		c.defRanges[i] = ranges(&p.defs[i].g, &p.defs[i].obj.ch)
		c.defOn[i] = m.file.Deformers[i].Flags&p2lrt.DeformerEnabled != 0
		c.defPart[i] = -1
		if pt := m.file.Deformers[i].Part; pt >= 0 && pt < len(m.file.Parts) {
			c.defPart[i] = int32(pt)
		}
	}
	c.meshRanges = make([][]keyRange, len(p.meshes))
	c.meshOn = make([]bool, len(p.meshes))
	for i := range p.meshes {
		c.meshRanges[i] = ranges(&p.meshes[i].g, &p.meshes[i].obj.ch)
		c.meshOn[i] = !p.meshes[i].hidden
	}
	c.partRanges = make([][]keyRange, len(p.parts))
	depth := make([]int, len(p.parts))
	c.partDepth = depth
	for i := range p.parts {
		c.partRanges[i] = ranges(nil, &p.parts[i].obj.ch)
		c.partOrder = append(c.partOrder, int32(i))
		// The chain stops where it would repeat a part (a cycle).
		for a := p.partParent[i]; a >= 0 && depth[i] < len(p.parts); a = p.partParent[a] {
			depth[i]++
		}
	}
	slices.SortStableFunc(c.partOrder, func(a, b int32) int { return depth[a] - depth[b] })
}
