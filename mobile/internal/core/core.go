// Package core is the platform-independent half of the mobile package: the
// character state an app drives (model, rig, reactions, background, pause),
// touch gestures, frame pacing and listener notifications. It imports no
// Ebitengine package, so its tests and the mobile API's tests run without a
// display; the ebiten.Game in mobile/internal/game only feeds it touches and
// ticks and draws what it holds.
//
// Every method is safe for concurrent use: gomobile calls arrive on the
// app's threads while the game runs on the render thread. One mutex guards
// the state, so the rig is used by one goroutine at a time. Listener
// callbacks are made after the mutex is released, so a callback may call
// back into the API.
package core

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/lipsync"
)

// Listener receives what happens in the view. Its methods are called on the
// game's thread, never while the core's mutex is held.
type Listener interface {
	// OnHit reports a tap on a hit area, by id.
	OnHit(areaID string)
	// OnEvent reports a clip event passed during an update.
	OnEvent(clipID, value string)
	// OnError reports a failure that made the character inert.
	OnError(message string)
}

// Color is a straight-alpha RGBA color with components in [0, 1].
type Color struct{ R, G, B, A float32 }

// ErrNoModel is returned by calls that need a model before one is loaded.
var ErrNoModel = errors.New("no model loaded")

// ReactionPriority is the priority reactions to taps play with on layer 0:
// Cubism's "normal", so a tap interrupts an idle loop started with priority
// 1 ("idle") but not a clip the app forced with a higher one.
const ReactionPriority = 2

// Core is the state behind one character view.
type Core struct {
	mu sync.Mutex

	model    *p2l.Model
	warnings []string // of the last Load, see Warnings
	rig      Rig
	// newRig makes the rig of a freshly loaded model; tests replace it.
	newRig func(*p2l.Model) (Rig, error)
	failed bool

	// reactions maps a hit-area index to the clip the app chose for a tap
	// (−1: the default); tapGroups lists the area's "Tap<Name>" clips and
	// tapNext is the round-robin position in them.
	reactions []int
	tapGroups [][]int
	tapNext   []int

	background Color
	paused     bool

	view    view
	gesture gesture
	pace    pacer

	listener Listener
	pending  []note
	samples  []float32 // lip-sync PCM conversion buffer, reused
	lip      lipsync.Analyzer
	lipGain  float64
	onEvent  func(clip int, value string) // c.addEvent, bound once
}

// note is one listener notification waiting for the mutex to be released.
type note struct {
	kind      noteKind
	id, value string
}

type noteKind uint8

const (
	noteHit noteKind = iota
	noteEvent
	noteError
)

// New returns a core with no model, a transparent background and the
// default pacing.
func New() *Core {
	c := &Core{newRig: newP2LRig, lipGain: lipsync.DefaultGain}
	c.onEvent = c.addEvent
	c.pace = defaultPacer()
	c.gesture.slop = defaultSlop
	return c
}

// Load reads a model — a .p2lrt file or a zip of a Cubism model's folder —
// and makes it the displayed character. On error the previous character
// and its warnings stay.
func (c *Core) Load(data []byte) (err error) {
	defer recoverTo(&err)
	m, warnings, err := loadModel(data)
	if err != nil {
		return err
	}
	if err := c.SetModel(m); err != nil {
		return err
	}
	c.mu.Lock()
	c.warnings = warnings
	c.mu.Unlock()
	return nil
}

// Warnings returns what loading the displayed model skipped or read
// differently from its files, as the Cubism framework would (a motion the
// model cannot play, an unknown id, …), one line each; none for a .p2lrt
// file or a model set with SetModel.
func (c *Core) Warnings() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.warnings
}

// SetModel makes m the displayed character, with a new rig.
func (c *Core) SetModel(m *p2l.Model) (err error) {
	defer recoverTo(&err)
	if m == nil {
		return errors.New("nil model")
	}
	// The rig is made without the mutex: with the game's rig maker it
	// decodes and uploads the texture pages (a few hundred ms for the
	// default character), which would stall the render thread otherwise.
	// ebitenp2l guards its shared resources itself; the new character is
	// handed to the game loop under the mutex below.
	c.mu.Lock()
	newRig := c.newRig
	c.mu.Unlock()
	r, err := newRig(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.model, c.rig, c.failed, c.warnings = m, r, false, nil
	c.reactions = make([]int, m.HitAreas().Len())
	c.tapGroups = make([][]int, m.HitAreas().Len())
	c.tapNext = make([]int, m.HitAreas().Len())
	for i := range m.HitAreas().Len() {
		c.reactions[i] = -1
		c.tapGroups[i] = tapGroup(m, i)
	}
	c.gesture.reset()
	c.pace.reset(m)
	c.view.dirty = true
	return nil
}

// tapGroup lists the clips a tap on hit area a plays by the library's one
// convention (p2l.Model.TapGroup: "Tap" + the area's name, or its id
// without "HitArea" when it has no name), the group compared ignoring
// case as p2l's lookups do.
func tapGroup(m *p2l.Model, a int) []int {
	name := m.TapGroup(a)
	var g []int
	for i, cl := range m.Clips().All() {
		if strings.EqualFold(cl.Group, name) {
			g = append(g, i)
		}
	}
	return g
}

// Loaded reports whether a model is displayed.
func (c *Core) Loaded() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.model != nil
}

// Model returns the displayed model, or nil.
func (c *Core) Model() *p2l.Model {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.model
}

// do runs fn with the mutex held and a live rig, turning a panic into an
// error and marking the character failed (a panic inside the rig leaves it
// in an unknown state).
func (c *Core) do(fn func(m *p2l.Model, r Rig) error) (err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.model == nil {
		return ErrNoModel
	}
	if c.failed {
		return fmt.Errorf("character failed: %w", c.rigErr())
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("internal error: %v", v)
			c.fail(err)
		}
	}()
	return fn(c.model, c.rig)
}

// rigErr is the rig's failure, or a generic one when a panic caused it.
func (c *Core) rigErr() error {
	if c.rig != nil {
		if err := c.rig.Err(); err != nil {
			return err
		}
	}
	return errors.New("a previous call failed")
}

// fail marks the character inert and queues an OnError notification.
// The mutex must be held.
func (c *Core) fail(err error) {
	if c.failed {
		return
	}
	c.failed = true
	c.view.dirty = true // the inert character is no longer drawn
	c.pending = append(c.pending, note{kind: noteError, value: err.Error()})
}

// Index lookups through the model's id tables. An empty or unknown id is an
// error naming it.

func lookup(kind, id string, i int) (int, error) {
	if i < 0 {
		return -1, fmt.Errorf("no %s %q", kind, id)
	}
	return i, nil
}

func clipIndex(m *p2l.Model, id string) (int, error) { return lookup("clip", id, m.ClipIndex(id)) }

func expressionIndex(m *p2l.Model, id string) (int, error) {
	return lookup("expression", id, m.ExpressionIndex(id))
}

func parameterIndex(m *p2l.Model, id string) (int, error) {
	return lookup("parameter", id, m.ParameterIndex(id))
}

func hitAreaIndex(m *p2l.Model, id string) (int, error) {
	return lookup("hit area", id, m.HitAreaIndex(id))
}

// recoverTo turns a panic into *err; used at every entry point that does
// not go through do.
func recoverTo(err *error) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("internal error: %v", v)
	}
}

// Features returns the advanced-mode feature bits the displayed model
// carries data for and the runtime supports, or 0.
func (c *Core) Features() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.model == nil {
		return 0
	}
	return int(c.model.AdvancedAvailable())
}
