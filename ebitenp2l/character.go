package ebitenp2l

import (
	"errors"
	"image"
	"runtime"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/internal/rigframe"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/render"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// Character is one drawable instance of a model: a *p2l.Rig plus the GPU
// resources to draw it. Create it with NewCharacter, advance it in the
// game's Update and draw it in the game's Draw. When the game drops it,
// its resources are released with it, as Ebitengine's images are;
// Deallocate releases them at once.
//
// Like the Rig it wraps, a Character belongs to one goroutine: use it from
// the game loop. Any number of characters may share one *p2l.Model; they
// share its textures on the GPU.
type Character struct {
	model *p2l.Model
	rig   *p2l.Rig
	pose  pose // rig, except in tests
	// res is the model's shared resources, nil after Deallocate (acquire
	// takes them again); texOpts is how acquire decodes the pages; cleanup
	// counts the character out when it is collected holding res
	// (lifetime.go).
	res     *modelRes
	texOpts texture.Options
	cleanup runtime.Cleanup
	geoM    ebiten.GeoM // of the last Draw
	calls   int         // DrawTrianglesShader calls of the last Draw
	vc      vertexCache // the vertices last submitted, per mesh (vcache.go)
	fc      flatCache   // which meshes cover no point twice (flat.go)

	// For frame replay (replay.go): a serial number never reused, the
	// pose's rig-wide revision (nil: a pose without one, never replayed),
	// and the last frames of Character.Draw.
	id     uint64
	rigRev revisionCounter
	rec    recorder

	// The pose's mesh revisions (nil: none; vcache.go). Both interfaces
	// are taken from the pose once, here: an interface-to-interface
	// assertion in the frame would now and then allocate (Go's runtime
	// builds its per-site cache at random calls).
	meshRevs revisioned

	voice *Voice     // speaking now, driven by Update (voice.go)
	sound clipSounds // plays clip sounds through voice (clipsound.go)
	look  lookAim    // LookAtScreen's anchor and reach (lookat.go)

	hitOpts HitOptions      // how HitTest and Tap decide (hit.go)
	hit     render.Renderer // MeshAt's pages and buffers, no image
}

// Options configures where a model's texture pages come from. It matters
// only for the first character of a model: the pages are decoded once and
// shared by every later character of the same model.
type Options struct {
	// Textures says how texture pages decode: Textures.FS resolves external
	// pages, Textures.Resolve lets the host supply any page, and
	// Textures.Logger receives a warning per page that cannot be decoded.
	// The default (zero) value decodes embedded PNG and KTX2 pages, reads
	// external pages from the directory the model was loaded from
	// (p2l.LoadFile, LoadFS) and logs to the model's own logger.
	Textures texture.Options
	// ClipSounds says where the sounds of clips (p2l.Model.ClipSound)
	// come from; the default plays them from the model's directory.
	ClipSounds ClipSounds
}

// NewCharacter returns a character playing model with default options:
// embedded PNG and KTX2 pages are decoded and uploaded once per model.
// Meshes on a page that cannot be decoded are not drawn; TextureInfo says
// why.
func NewCharacter(model *p2l.Model) *Character {
	return NewCharacterWithOptions(model, nil)
}

// NewCharacterWithOptions is NewCharacter with options; opts may be nil.
// A nil model is a programming error: it panics with an "ebitenp2l:"
// message. A model that cannot be evaluated gives a character that draws
// nothing; Rig().Err() says why.
func NewCharacterWithOptions(model *p2l.Model, opts *Options) *Character {
	if model == nil {
		panic("ebitenp2l: NewCharacter with a nil model")
	}
	rig := model.NewRig()
	rig.Evaluate()
	c := newCharacter(model, opts, rig, rigframe.Frame{Rig: rig})
	c.look.face, c.look.hasFace = faceAnchor(rig) // from the rest pose just evaluated
	return c
}

// newCharacter builds a character reading its pose from p (the rig, or a
// test's hand-made pose).
func newCharacter(model *p2l.Model, opts *Options, rig *p2l.Rig, p pose) *Character {
	if opts == nil {
		opts = &Options{}
	}
	c := &Character{model: model, rig: rig, pose: p, texOpts: opts.Textures}
	c.rigRev, _ = p.(revisionCounter)
	c.meshRevs, _ = p.(revisioned)
	c.sound.init(model, opts.ClipSounds)
	c.acquire()
	return c
}

// acquire gives c its model's resources when it holds none (at creation,
// and at the first use after Deallocate) and returns them. A character
// that takes them again gets a new serial number: a frame recorded with
// the ones it held before must not be replayed (replay.go).
func (c *Character) acquire() *modelRes {
	if c.res != nil {
		return c.res
	}
	model, texOpts := c.model, c.texOpts // not c: the closure lives in the shared resources
	c.res = acquireRes(model, func() ([]*image.RGBA, []error) {
		pages := texture.Decode(model, &texOpts)
		imgs := make([]*image.RGBA, len(pages))
		errs := make([]error, len(pages))
		for i, p := range pages {
			imgs[i], errs[i] = p.Image, p.Err
		}
		return imgs, errs
	}, c.pose)
	c.id = characterSerial.Add(1)
	c.cleanup = runtime.AddCleanup(c, characterCollected, c.res.self)
	return c.res
}

var errIndex = errors.New("texture page index out of range")

// Rig returns the character's rig, for everything beyond drawing: clips,
// expressions, parameters, look-at, lip sync, hit areas.
func (c *Character) Rig() *p2l.Rig { return c.rig }

// TextureInfo reports whether texture page i of the character's model is
// available on the GPU, and why not: nil when it was uploaded, the decoding
// error otherwise (errors.Is(err, texture.ErrUnsupported) for a format that
// is not decoded). An index out of range gives an error too. After
// Deallocate it takes the model's pages again, as Draw does.
func (c *Character) TextureInfo(i int) error {
	r := c.acquire()
	if i < 0 || i >= len(r.pageErr) {
		return &texture.PageError{Index: i, Err: errIndex}
	}
	return r.pageErr[i]
}

// Update advances the character by dt seconds (its Voice's mouth, then
// clips, expressions, behaviors, physics, pose: Rig.Update), evaluates
// the pose and starts the sound of a clip that started (ClipSounds). Call
// it once per tick from the game's Update, with dt =
// 1/float64(ebiten.TPS()) for Ebitengine's fixed tick.
func (c *Character) Update(dt float64) {
	if c.rig == nil {
		return
	}
	if c.voice != nil {
		c.voice.update(dt)
	}
	c.rig.Update(dt)
	c.sound.update(c)
	c.keepBoxes()
}

// UpdateStages is Update running only the chosen stages (Rig.UpdateStages):
// the voice, if any, still moves the mouth first.
func (c *Character) UpdateStages(dt float64, stages p2l.Stage) {
	if c.rig == nil {
		return
	}
	if c.voice != nil {
		c.voice.update(dt)
	}
	c.rig.UpdateStages(dt, stages)
	c.sound.update(c)
	c.keepBoxes()
}

// Voice returns the character's voice (NewVoice), nil when none plays.
func (c *Character) Voice() *Voice { return c.voice }

// HitTest returns the hit area (an index into Model.HitAreas) under the
// point (x, y) of the last Draw's destination, or −1: the point goes
// through ScreenToCanvas, then Rig.HitTest (the areas' meshes: their
// triangles, or for a Cubism model their vertex boxes), or with
// HitOptions.Pixels render.Renderer.HitTestAlpha (the same test, only
// where the character is drawn).
func (c *Character) HitTest(x, y float64) int {
	cx, cy, ok := c.ScreenToCanvas(x, y)
	if !ok || c.rig == nil {
		return -1
	}
	if c.hitOpts.Pixels {
		c.usePixels()
		return c.hit.HitTestAlpha(c.rig, float32(cx), float32(cy), c.hitOpts.threshold())
	}
	return c.rig.HitTest(float32(cx), float32(cy))
}

// DrawOptions are the options of Character.Draw. A nil *DrawOptions means
// the zero value.
type DrawOptions struct {
	// GeoM maps canvas pixels (the model's coordinates, y down) to the
	// destination's coordinates. The default (zero) value is the identity:
	// one canvas pixel per destination pixel at the destination's origin.
	GeoM ebiten.GeoM

	// ColorScale scales the character's premultiplied colors, as
	// ebiten.DrawImageOptions.ColorScale does for an image. It applies to
	// the character as drawn into the destination (a group's layer is
	// scaled when it is composited, not inside). The default (zero) value
	// is the identity. A zero alpha scale draws nothing.
	ColorScale ebiten.ColorScale

	// Filter is how texture pages are sampled. The default (zero) value,
	// FilterLinear, is the bilinear filtering of the CPU reference renderer.
	Filter Filter
}

// Filter selects texture sampling.
type Filter int

const (
	// FilterLinear samples texture pages bilinearly (premultiplied), as the
	// CPU reference renderer does.
	FilterLinear Filter = iota
	// FilterNearest samples the nearest texel (pixel-art models).
	FilterNearest
)

// Draw draws the character's last evaluated pose into dst: meshes go
// straight into dst through opts.GeoM, so the character stays sharp at any
// zoom; only isolated groups, masks and backdrop-reading blend modes use
// pooled offscreen images. Call it from the game's Draw. opts may be nil.
//
// Drawing the same character with the same options into the same
// destination again, with nothing evaluated in between that changed its
// outputs, replays the recorded draws of the frame before (docs/EBITEN.md
// "Replay"); a Batch does the same for many characters.
//
// Draw also releases the resources of characters collected since the last
// Draw (see Deallocate), and after Deallocate it takes the model's pages
// again. It panics (with an "ebitenp2l:" prefix) only if this package's
// shaders fail to compile, which is a bug.
func (c *Character) Draw(dst *ebiten.Image, opts *DrawOptions) {
	if dst == nil {
		return
	}
	if opts != nil {
		c.geoM = opts.GeoM
	} else {
		c.geoM = ebiten.GeoM{}
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	releaseCollected()
	c.acquire()
	before := rd.drawCalls
	var o DrawOptions
	if opts != nil {
		o = *opts
	}
	rd.one = append(rd.one[:0], entry{c, o})
	rd.drawFrame(dst, rd.one, &c.rec)
	rd.one[0] = entry{}
	c.calls = rd.drawCalls - before
}

// DrawCalls returns how many draws the last Draw made: runs of
// DrawTrianglesShader submissions with one state (large runs are submitted
// in parts of a few thousand vertices, which Ebitengine merges into one
// command); after a Batch.Draw, the draws of that whole batch. Viewers
// show it; tests check batching with it.
func (c *Character) DrawCalls() int { return c.calls }

// ScreenToCanvas maps a point of the destination of the last Draw (for
// example the cursor position) to canvas pixels, through the inverse of
// that Draw's GeoM: use it for hit tests and look-at targets. Before the
// first Draw the GeoM is the identity. ok is false when the GeoM is not
// invertible.
func (c *Character) ScreenToCanvas(x, y float64) (cx, cy float64, ok bool) {
	g := c.geoM
	if !g.IsInvertible() {
		return 0, 0, false
	}
	g.Invert()
	cx, cy = g.Apply(x, y)
	return cx, cy, true
}

// CanvasToScreen maps canvas pixels to the destination of the last Draw
// (for example to place a speech bubble over the head).
func (c *Character) CanvasToScreen(x, y float64) (sx, sy float64) {
	return c.geoM.Apply(x, y)
}

// Deallocate releases the character's resources now instead of when it
// becomes unreachable, as ebiten.Image.Deallocate does for an image: the
// model's texture pages when no other character of the model holds them,
// the pooled offscreen images when no character holds any. It also stops
// the character's Voice. Calling it is never required: a character the
// game drops is released after the garbage collector finds it
// unreachable, at the next Draw of any character (docs/EBITEN.md,
// "Lifetimes").
//
// The character stays usable: Update runs its rig as before, and the next
// Draw (or TextureInfo, or a pixel hit test) decodes and uploads the
// model's pages again when no other character holds them. Deallocating
// twice does nothing more. Call it on the game goroutine, like Draw.
func (c *Character) Deallocate() {
	if c.voice != nil {
		c.voice.Stop()
	}
	rd.mu.Lock() // the pool is the renderer's
	defer rd.mu.Unlock()
	releaseCollected()
	if c.res == nil {
		return
	}
	c.cleanup.Stop()
	c.vc = vertexCache{}
	c.fc = flatCache{}
	c.hit = render.Renderer{}
	c.rec.reset()
	r := c.res
	c.res = nil
	resMu.Lock()
	defer resMu.Unlock()
	characterGone(r)
}
