package ebitenp2l

import (
	"image"
	"math"
	"reflect"
	"slices"
	"sync/atomic"

	"github.com/hajimehoshi/ebiten/v2"
)

// Frame replay. A frame whose inputs are exactly those of the frame before
// (a crowd standing still, a paused game, a menu over a character) draws
// the same pixels: the planning, batching and vertex building would all
// come out the same. So a Batch (and a Character, for Character.Draw)
// keeps the list of DrawTrianglesShader submissions of its last frame —
// their vertices, indices, program, options and uniforms — and a frame
// with the same inputs submits that list again instead, which costs about
// what Ebitengine's own per-vertex work costs (the floor).
//
// The inputs of a frame (frameKey) are: the destination image (identity)
// and its bounds; the characters in order, each by a serial number that is
// never reused (not its address: a collected character's memory may hold a
// new one) and its rig's Revision (p2l.Rig.Revision grows with every
// evaluation that changed anything drawn); every field of each character's
// DrawOptions, bit for bit. The model's pages, mask sets and index lists do
// not change for a live character (a Model is immutable, and its pages are
// uploaded once per model). What the submissions refer to beyond that are
// the offscreen pool's pages (shared by every Batch and Character.Draw of
// the process): a replay also needs each of them to be the image it was
// when the frame was recorded (a page that grew is a new image). Anything
// else — a pose without a revision (a test's hand-made pose) among them —
// draws normally.
//
// What a frame draws into the pool's coverage and layer pages (the mask
// coverage, the isolated groups' layers and their own backdrop copies)
// depends on its characters alone, never on the destination's pixels, and
// every region there is the frame's own (no region is reused within a
// frame). So when nothing has drawn into the pool since the recorder's own
// last frame (pool.stamp), those pages still hold exactly what a replay
// would draw there, and the replay submits only the draws into the
// destination (and the backdrop copies from it, which depend on its
// pixels): a still crowd redraws neither its masks nor its groups. When
// another frame has used the pool in between (another Batch, another
// Character.Draw), the replay submits everything: each frame clears the
// regions it uses before it reads them.
//
// Recording copies the frame's vertices (48 bytes a vertex) and indices
// once more, so it is done only for a frame whose inputs equal those of
// the frame before: the first still frame after a change records, the
// next ones replay, and an animated scene never pays for recording.

// frameKey is what a frame's output depends on (see above).
type frameKey struct {
	dst   *ebiten.Image
	dstB  image.Rectangle
	chars []charKey
	ok    bool // every character has a revision: the frame can be replayed
}

// charKey is one character of a frame: who, which outputs, which options.
type charKey struct {
	id     uint64
	rev    uint64
	geo    [6]uint64 // GeoM elements, bits
	cs     [4]uint32 // ColorScale, bits
	filter Filter
}

// submission is one recorded DrawTrianglesShader call.
type submission struct {
	dst    *ebiten.Image
	shader *ebiten.Shader
	opts   ebiten.DrawTrianglesShaderOptions
	u      [8]float32 // the uniforms' values: Cov, Back (opts.Uniforms holds the renderer's maps)
	v0, v1 int32      // vertices verts[v0:v1]
	i0, i1 int32      // indices inds[i0:i1], relative to v0
	first  bool       // first submission of a state run (counted as a draw)
	pooled bool       // draws into the pool's coverage or layer pages (see above)
}

// recorder keeps the inputs of its last frame and, for a still scene, the
// submissions of a recorded frame.
type recorder struct {
	cur, last frameKey // this frame's inputs; the previous frame's

	valid bool
	key   frameKey        // inputs of the recorded frame
	stamp uint64          // pool.stamp after this recorder's last frame drew into the pool
	pages []*ebiten.Image // the pool's page images when it was recorded
	subs  []submission    // its submissions, in order
	verts []ebiten.Vertex // their vertices
	inds  []uint16        // their indices
}

// characterSerial numbers characters (charKey.id).
var characterSerial atomic.Uint64

// revisionCounter is implemented by *p2l.Rig: the rig-wide output
// revision.
type revisionCounter interface {
	Revision() uint64
}

// drawFrame draws entries into dst through recorder rec: a replay of rec's
// recorded frame when the inputs are the same, else a normal frame
// (recorded when its inputs equal the previous frame's). Called with rd.mu
// held.
func (r *renderer) drawFrame(dst *ebiten.Image, entries []entry, rec *recorder) {
	rec.cur.set(dst, entries)
	defer func() { rec.cur, rec.last = rec.last, rec.cur }()
	// The pool's stamp advances before a frame draws into the pool, and a
	// recorder takes it after its frame has drawn, so that a frame which
	// stops halfway (a panic) leaves no replay keeping the pool.
	if rec.valid && rec.cur.ok && rec.cur.equal(&rec.key) && rec.poolSame() {
		if rec.stamp == pool.stamp {
			r.replay(rec, true)
			return
		}
		stamp := pool.wrote()
		r.replay(rec, false)
		rec.stamp = stamp
		return
	}
	rec.drop()
	stamp := pool.wrote()
	if !rec.cur.ok || !rec.cur.equal(&rec.last) {
		r.draw(dst, entries)
		return
	}
	rec.verts, rec.inds, rec.subs = rec.verts[:0], rec.inds[:0], rec.subs[:0]
	r.rec = rec
	defer func() { r.rec = nil }() // also when draw panics
	r.draw(dst, entries)
	rec.stamp = stamp
	rec.key.copyFrom(&rec.cur)
	rec.pages = pool.images(rec.pages[:0])
	rec.valid = true
	if counters != nil {
		counters.recorded++
	}
}

// replay submits rec's recorded frame again; with keepPool, all but its
// draws into the pool's coverage and layer pages, which still hold them.
func (r *renderer) replay(rec *recorder, keepPool bool) {
	if err := loadShaders(); err != nil {
		panic(err)
	}
	if keepPool {
		if counters != nil {
			counters.poolKept++
		}
	}
	for i := range rec.subs {
		s := &rec.subs[i]
		if keepPool && s.pooled {
			continue
		}
		copy(r.covU, s.u[:4])
		copy(r.backU, s.u[4:])
		s.dst.DrawTrianglesShader(rec.verts[s.v0:s.v1], rec.inds[s.i0:s.i1], s.shader, &s.opts)
		if counters != nil {
			counters.submits++
		}
		if s.first {
			r.drawCalls++
		}
	}
	if counters != nil {
		counters.replays++
	}
}

// record appends the call being submitted to the recording. A call that
// continues a state run joins the recorded submission before it while
// their vertices fit uint16 indices: Ebitengine merges such submissions
// into one command anyway, and the replay saves its per-call work (the
// normal path submits in small parts to keep the vertices it builds in the
// CPU's caches, which does not matter for vertices recorded long ago).
func (rec *recorder) record(r *renderer, first bool) {
	var u [8]float32
	copy(u[:4], r.covU)
	copy(u[4:], r.backU)
	if n := len(rec.subs); n > 0 && !first {
		p := &rec.subs[n-1]
		if base := p.v1 - p.v0; int(base)+len(r.verts) <= maxBatchVertices && p.sameState(r, &u) {
			rec.verts = append(rec.verts, r.verts...)
			l := len(rec.inds)
			rec.inds = slices.Grow(rec.inds, len(r.inds))[:l+len(r.inds)]
			for j, k := range r.inds {
				rec.inds[l+j] = k + uint16(base)
			}
			p.v1, p.i1 = int32(len(rec.verts)), int32(len(rec.inds))
			return
		}
	}
	s := submission{
		dst: r.call.dst, shader: r.call.shader, opts: r.opts, u: u, first: first, pooled: r.pooled,
		v0: int32(len(rec.verts)), i0: int32(len(rec.inds)),
	}
	rec.verts = append(rec.verts, r.verts...)
	rec.inds = append(rec.inds, r.inds...)
	s.v1, s.i1 = int32(len(rec.verts)), int32(len(rec.inds))
	rec.subs = append(rec.subs, s)
}

// sameState reports whether the call being submitted has the state of
// recorded submission s (a state run has by construction; checked here so
// that merging never depends on it). Every field of the options is
// compared but the deprecated CompositeMode, which this package neither
// sets nor reads (Blend replaced it).
func (s *submission) sameState(r *renderer, u *[8]float32) bool {
	o := &r.opts
	return s.dst == r.call.dst && s.shader == r.call.shader && s.u == *u && s.pooled == r.pooled &&
		s.opts.Images == o.Images && s.opts.Blend == o.Blend &&
		s.opts.FillRule == o.FillRule && s.opts.AntiAlias == o.AntiAlias &&
		reflect.ValueOf(s.opts.Uniforms).UnsafePointer() == reflect.ValueOf(o.Uniforms).UnsafePointer()
}

// drop forgets the recorded frame and the images it refers to.
func (rec *recorder) drop() {
	if !rec.valid && len(rec.subs) == 0 {
		return
	}
	rec.valid = false
	clear(rec.subs)
	rec.subs = rec.subs[:0]
	clear(rec.pages)
	rec.pages = rec.pages[:0]
	rec.key.dst = nil
}

// reset forgets everything (a deallocated character's recorder).
func (rec *recorder) reset() { *rec = recorder{} }

// set fills k with the inputs of a frame of entries into dst.
func (k *frameKey) set(dst *ebiten.Image, entries []entry) {
	k.dst, k.dstB, k.ok = dst, dst.Bounds(), true
	k.chars = k.chars[:0]
	for i := range entries {
		e := &entries[i]
		c := e.c
		if c == nil || c.res == nil {
			continue // not drawn
		}
		ck := charKey{id: c.id, filter: e.opts.Filter}
		if c.rigRev != nil {
			ck.rev = c.rigRev.Revision()
		} else {
			k.ok = false
		}
		g := &e.opts.GeoM
		ck.geo = [6]uint64{
			math.Float64bits(g.Element(0, 0)), math.Float64bits(g.Element(0, 1)), math.Float64bits(g.Element(0, 2)),
			math.Float64bits(g.Element(1, 0)), math.Float64bits(g.Element(1, 1)), math.Float64bits(g.Element(1, 2)),
		}
		cs := &e.opts.ColorScale
		ck.cs = [4]uint32{math.Float32bits(cs.R()), math.Float32bits(cs.G()), math.Float32bits(cs.B()), math.Float32bits(cs.A())}
		k.chars = append(k.chars, ck)
	}
}

func (k *frameKey) equal(o *frameKey) bool {
	return k.dst == o.dst && k.dstB == o.dstB && slices.Equal(k.chars, o.chars)
}

func (k *frameKey) copyFrom(o *frameKey) {
	k.dst, k.dstB, k.ok = o.dst, o.dstB, o.ok
	k.chars = append(k.chars[:0], o.chars...)
}

// poolSame reports whether the pool's pages are the images they were when
// rec's frame was recorded.
func (rec *recorder) poolSame() bool {
	p := &pool
	if len(rec.pages) != len(p.layers)+2 || rec.pages[0] != p.coverage.img || rec.pages[1] != p.scratch.img {
		return false
	}
	for d, l := range p.layers {
		if rec.pages[d+2] != l.img {
			return false
		}
	}
	return true
}

// images appends the pool's page images: coverage, scratch, layers.
func (o *offscreenPool) images(to []*ebiten.Image) []*ebiten.Image {
	to = append(to, o.coverage.img, o.scratch.img)
	for _, l := range o.layers {
		to = append(to, l.img)
	}
	return to
}
