package core

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/lipsync"
)

// Wake durations: how long the pacer keeps the full update rate after a
// call whose effect the rig smooths over time.
const (
	wakeShort = 0.25 // a parameter or mode change: a few updates
	wakeGaze  = 1.5  // look-at follows with critical damping over ~1 s
	// wakeFade covers the default 1 s fade of clips stopping and the
	// expressions' fades (0.5 s by default). A longer fade finishes at the
	// idle rate.
	wakeFade = 1
)

func finite(vs ...float64) error {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("value %v is not finite", v)
		}
	}
	return nil
}

// PlayClip plays the clip with the given id on layer 0 whatever plays
// there; the layer's priority becomes 0, so a tap reaction may interrupt it.
func (c *Core) PlayClip(id string) error {
	return c.do(func(m *p2l.Model, r Rig) error {
		i, err := clipIndex(m, id)
		if err != nil {
			return err
		}
		r.Play(i)
		c.pace.wake(wakeShort)
		return nil
	})
}

// PlayClipLayer plays the clip with the given id on layer if priority is
// not lower than that of the clip playing there.
func (c *Core) PlayClipLayer(layer int, id string, priority int) error {
	return c.do(func(m *p2l.Model, r Rig) error {
		i, err := clipIndex(m, id)
		if err != nil {
			return err
		}
		if layer < 0 || layer >= MaxLayers {
			return fmt.Errorf("layer %d out of range [0, %d)", layer, MaxLayers)
		}
		if !r.PlayLayer(layer, i, priority) {
			return fmt.Errorf("clip %q refused: layer %d plays a clip of higher priority", id, layer)
		}
		c.pace.wake(wakeShort)
		return nil
	})
}

// MaxLayers is the number of clip layers.
const MaxLayers = p2l.MaxLayers

// StopClips stops every layer.
func (c *Core) StopClips() error {
	return c.do(func(m *p2l.Model, r Rig) error {
		r.Stop()
		c.pace.wake(wakeFade)
		return nil
	})
}

// SetExpression makes the expression with the given id the only one; an
// empty id clears all expressions.
func (c *Core) SetExpression(id string) error {
	return c.do(func(m *p2l.Model, r Rig) error {
		i := -1
		if id != "" {
			var err error
			if i, err = expressionIndex(m, id); err != nil {
				return err
			}
		}
		r.SetExpression(i)
		c.pace.wake(wakeFade)
		return nil
	})
}

// AddExpression stacks the expression with the given id.
func (c *Core) AddExpression(id string) error {
	return c.do(func(m *p2l.Model, r Rig) error {
		i, err := expressionIndex(m, id)
		if err != nil {
			return err
		}
		r.AddExpression(i)
		c.pace.wake(wakeFade)
		return nil
	})
}

// RemoveExpression fades the expression with the given id out.
func (c *Core) RemoveExpression(id string) error {
	return c.do(func(m *p2l.Model, r Rig) error {
		i, err := expressionIndex(m, id)
		if err != nil {
			return err
		}
		r.RemoveExpression(i)
		c.pace.wake(wakeFade)
		return nil
	})
}

// LookAt sets the gaze target, x and y in [−1, 1] (clamped), y up.
func (c *Core) LookAt(x, y float64) error {
	if err := finite(x, y); err != nil {
		return err
	}
	return c.do(func(m *p2l.Model, r Rig) error {
		r.LookAt(float32(clamp(x, -1, 1)), float32(clamp(y, -1, 1)))
		c.pace.wake(wakeGaze)
		return nil
	})
}

// SetLipSync sets the mouth opening level in [0, 1] (clamped). A level
// above zero keeps the full update rate.
func (c *Core) SetLipSync(level float64) error {
	if err := finite(level); err != nil {
		return err
	}
	return c.do(func(m *p2l.Model, r Rig) error {
		level = clamp(level, 0, 1)
		r.LipSync(float32(level))
		c.pace.lip = level > 0
		c.pace.wake(wakeShort)
		return nil
	})
}

// PCM limits. lipWindow is the span of audio the mouth follows: only the
// most recent 1/20 s of a block counts, so a long block does not average
// over several syllables.
const (
	MinSampleRate = 1000
	MaxSampleRate = 384000
)

// LipSyncPCM sets the mouth from mono 16-bit little-endian PCM at
// sampleRate Hz: the last lipsync.DefaultWindow seconds of the block go
// through the core's lipsync.Analyzer (level = RMS × gain, vowel from the
// formants; the same analysis as ebitenp2l.Voice) into Rig.LipSyncVowels
// (p2l.Rig.LipSync).
// The block's length is the time step of the vowel smoothing.
func (c *Core) LipSyncPCM(pcm []byte, sampleRate int) error {
	if sampleRate < MinSampleRate || sampleRate > MaxSampleRate {
		return fmt.Errorf("sample rate %d out of range [%d, %d]", sampleRate, MinSampleRate, MaxSampleRate)
	}
	if len(pcm)%2 != 0 {
		return fmt.Errorf("PCM length %d is odd: samples are 16-bit", len(pcm))
	}
	return c.do(func(m *p2l.Model, r Rig) error {
		n := len(pcm) / 2
		block := float64(n) / float64(sampleRate)
		if w := max(1, int(float64(sampleRate)*lipsync.DefaultWindow)); n > w {
			pcm = pcm[2*(n-w):]
			n = w
		}
		if n == 0 {
			r.LipSync(0)
			c.pace.lip = false
			return nil
		}
		if cap(c.samples) < n {
			c.samples = make([]float32, n, max(n, int(float64(sampleRate)*lipsync.DefaultWindow)))
		}
		s := c.samples[:n]
		for i := range s {
			s[i] = float32(int16(binary.LittleEndian.Uint16(pcm[2*i:]))) / 32768
		}
		c.lip.Options.Gain = float32(c.lipGain)
		f := c.lip.Analyze(s, sampleRate, block)
		r.LipSyncVowels(f.Level, f.Vowels)
		c.pace.lip = true
		c.pace.wake(wakeShort)
		return nil
	})
}

// SetLipSyncGain sets the factor LipSyncPCM multiplies the RMS of the
// samples by (default lipsync.DefaultGain, 5, as ebitenp2l.Voice).
func (c *Core) SetLipSyncGain(g float64) error {
	if err := finite(g); err != nil {
		return err
	}
	if g < 0 || g > 1000 {
		return fmt.Errorf("lip-sync gain %v out of range [0, 1000]", g)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lipGain = g
	return nil
}

// HitTest returns the id of the hit area under the view point (fx, fy),
// given as fractions of the view's width and height (0,0 top left), or ""
// when none is there. Taps go through the same hitAt.
func (c *Core) HitTest(fx, fy float64) (string, error) {
	if err := finite(fx, fy); err != nil {
		return "", err
	}
	var id string
	err := c.do(func(m *p2l.Model, r Rig) error {
		if i := c.hitAt(m, r, fx*c.view.w, fy*c.view.h); i >= 0 {
			id = m.HitAreas().At(i).ID
		}
		return nil
	})
	return id, err
}

// hitAt returns the hit area under the view pixel (x, y), or −1. The mutex
// must be held.
func (c *Core) hitAt(m *p2l.Model, r Rig, x, y float64) int {
	cx, cy, ok := c.view.toCanvas(m.Canvas(), x, y)
	if !ok {
		return -1
	}
	i := r.HitTest(float32(cx), float32(cy))
	if i < 0 || i >= m.HitAreas().Len() {
		return -1
	}
	return i
}

// SetTapReaction sets the clip a tap on the hit area plays; an empty clip id
// restores the default (the clips of the group "Tap"+name in turn).
func (c *Core) SetTapReaction(areaID, clipID string) error {
	return c.do(func(m *p2l.Model, r Rig) error {
		a, err := hitAreaIndex(m, areaID)
		if err != nil {
			return err
		}
		cl := -1
		if clipID != "" {
			if cl, err = clipIndex(m, clipID); err != nil {
				return err
			}
		}
		c.reactions[a] = cl
		return nil
	})
}

// react plays the reaction to a tap on hit area a. The mutex must be held.
func (c *Core) react(r Rig, a int) {
	cl := c.reactions[a]
	if cl < 0 {
		g := c.tapGroups[a]
		if len(g) == 0 {
			return
		}
		cl = g[c.tapNext[a]%len(g)]
		c.tapNext[a]++
	}
	r.PlayLayer(0, cl, ReactionPriority)
	c.pace.wake(wakeShort)
}

// SetParameter sets the host value of the parameter with the given id (the
// rig clamps it to the parameter's range).
func (c *Core) SetParameter(id string, v float64) error {
	if err := finite(v); err != nil {
		return err
	}
	return c.do(func(m *p2l.Model, r Rig) error {
		i, err := parameterIndex(m, id)
		if err != nil {
			return err
		}
		r.SetParameter(i, float32(v))
		c.pace.wake(wakeShort)
		return nil
	})
}

// Parameter returns the value the parameter with the given id had in the
// last update (after clips, expressions, behaviours and physics).
func (c *Core) Parameter(id string) (float64, error) {
	var v float32
	err := c.do(func(m *p2l.Model, r Rig) error {
		i, err := parameterIndex(m, id)
		if err != nil {
			return err
		}
		v = r.Current(i)
		return nil
	})
	return float64(v), err
}

// SetAdvanced switches the advanced-mode feature bits (p2l.FeatureSkin ...)
// and returns the bits actually on: only those the model has data for,
// with their dependencies. The shared preparation (bone frames, fitted skin
// weights) runs before the mutex is taken, so the game keeps drawing.
func (c *Core) SetAdvanced(bits int) (int, error) {
	if bits < 0 || bits > 0xF {
		return 0, fmt.Errorf("advanced bits %#x: only 0x1 to 0x8 exist", bits)
	}
	if m := c.Model(); m != nil && bits != 0 {
		_ = m.PrepareAdvanced() // its problems leave the feature off; SetAdvanced reports what is on
	}
	on := 0
	err := c.do(func(m *p2l.Model, r Rig) error {
		on = r.SetAdvanced(bits)
		c.pace.wake(wakeShort)
		c.view.dirty = true
		return nil
	})
	return on, err
}

// SetBehaviors switches the procedural behaviours: bits is a combination of
// p2l's BehaviorBlink, BehaviorBreath, BehaviorLookAt and BehaviorLipSync
// (all on after loading).
func (c *Core) SetBehaviors(bits int) error {
	if bits < 0 || bits > int(p2l.AllBehaviors) {
		return fmt.Errorf("behavior bits %#x: only 0x1 to 0x8 exist", bits)
	}
	return c.do(func(m *p2l.Model, r Rig) error {
		r.SetBehaviors(bits)
		c.pace.wake(wakeShort)
		return nil
	})
}

// Advanced returns the active advanced-mode bits.
func (c *Core) Advanced() (int, error) {
	var b int
	err := c.do(func(m *p2l.Model, r Rig) error {
		b = r.Advanced()
		return nil
	})
	return b, err
}

// SetBackground sets the color the view is cleared to.
func (c *Core) SetBackground(r, g, b, a float64) error {
	if err := finite(r, g, b, a); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.background = Color{
		float32(clamp(r, 0, 1)), float32(clamp(g, 0, 1)),
		float32(clamp(b, 0, 1)), float32(clamp(a, 0, 1)),
	}
	c.view.dirty = true
	return nil
}

// Background returns the background color.
func (c *Core) Background() Color {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.background
}

// SetPaused stops (true) or resumes (false) the character's time: while
// paused no update runs and the last frame stays on screen; touches are
// ignored.
func (c *Core) SetPaused(p bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.paused = p
	c.gesture.reset()
	c.pace.wake(wakeShort)
	// Redraw on resume: a mobile GL context may have been lost while the
	// app was in the background, and with the screen not cleared every
	// frame the retained frame would otherwise stay lost.
	c.view.dirty = !p
}

// Paused reports whether the character is paused.
func (c *Core) Paused() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paused
}

// SetFraming zooms the character (1: the whole canvas fits the view) and
// puts the canvas point (cx, cy), in fractions of the canvas, at the view's
// centre.
func (c *Core) SetFraming(zoom, cx, cy float64) error {
	if err := finite(zoom, cx, cy); err != nil {
		return err
	}
	if zoom <= 0 || zoom > 100 {
		return fmt.Errorf("zoom %v out of range (0, 100]", zoom)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.view.zoom, c.view.cx, c.view.cy = zoom, cx, cy
	c.view.dirty = true
	return nil
}

// SetIdleRate sets how many updates per second the character gets while
// idle (0: none, the pose freezes until something happens).
func (c *Core) SetIdleRate(hz float64) error {
	if err := finite(hz); err != nil {
		return err
	}
	if hz < 0 || hz > 1000 {
		return errors.New("idle rate out of range [0, 1000]")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pace.idleHz = hz
	return nil
}

// SetListener sets the receiver of notifications (nil: none).
func (c *Core) SetListener(l Listener) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.listener = l
}

func clamp(v, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, v))
}
