package main

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"sort"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Width of the parameter window and the control window.
const panelWidth = 300

// panel is the UI state derived from a model: the parameter tree (from
// PGUI, with the parameters it leaves out listed last in PARM order), snap
// keys, joysticks and the host values of the sliders.
type panel struct {
	values []float64 // host pose shown by the sliders
	snaps  map[int][]float32
	// joyOf maps a joystick's horizontal parameter to its vertical one.
	joyOf   map[int]int
	inJoy   map[int]bool // parameters drawn by a joystick
	tree    []p2lrt.GUINode
	missing []int
	stacked []bool // expressions ticked in the stacked list
	joys    map[int]*joystick
}

func newPanel(m *p2l.Model) *panel {
	p := &panel{snaps: map[int][]float32{}, joyOf: map[int]int{}, inJoy: map[int]bool{}, joys: map[int]*joystick{}}
	p.reset(m)
	listed := map[int]bool{}
	if gui, ok := m.GUI(); ok {
		for _, s := range gui.Snaps {
			p.snaps[s.Parameter] = s.Keys
		}
		for _, j := range gui.Joysticks {
			p.joyOf[j.Horizontal] = j.Vertical
			p.inJoy[j.Horizontal], p.inJoy[j.Vertical] = true, true
		}
		p.tree = gui.Tree
		var walk func([]p2lrt.GUINode)
		walk = func(ns []p2lrt.GUINode) {
			for _, n := range ns {
				if n.Kind == p2lrt.GUIParameter {
					listed[n.Parameter] = true
				}
				walk(n.Children)
			}
		}
		walk(p.tree)
	}
	for i := range m.Parameters().Len() {
		if !listed[i] {
			p.missing = append(p.missing, i)
		}
	}
	sort.Ints(p.missing)
	p.stacked = make([]bool, m.Expressions().Len())
	return p
}

// reset puts every slider back to the parameter's default.
func (p *panel) reset(m *p2l.Model) {
	p.values = make([]float64, m.Parameters().Len())
	for i, q := range m.Parameters().All() {
		p.values[i] = float64(q.Default)
	}
	for i := range p.stacked {
		p.stacked[i] = false
	}
}

// snap moves v onto the nearest snap key of parameter i when it is within
// 4 % of the range of it.
func (p *panel) snap(m *p2l.Model, i int, v float64) float64 {
	keys := p.snaps[i]
	if len(keys) == 0 {
		return v
	}
	r := float64(m.Parameters().At(i).Max - m.Parameters().At(i).Min)
	best, bd := v, 0.04*r
	for _, k := range keys {
		if d := math.Abs(float64(k) - v); d <= bd {
			best, bd = float64(k), d
		}
	}
	return best
}

// paramLabel is the text of a parameter's slider.
func paramLabel(m *p2l.Model, i int) string {
	q := m.Parameters().At(i)
	if q.Name != "" {
		return q.Name
	}
	return q.ID
}

// groupLabel is the text of a group node: its custom name, its preset, or
// its id.
func groupLabel(n p2lrt.GUINode) string {
	switch n.Label {
	case p2lrt.GUILabelCustom:
		if n.Name != "" {
			return n.Name
		}
	case p2lrt.GUILabelPreset:
		if n.Preset != "" {
			return n.Preset
		}
	}
	if n.Name != "" {
		return n.Name
	}
	return n.ID
}

// buildUI is the debugui callback: the parameter window on the left, the
// control window on the right.
func (g *game) buildUI(ctx *debugui.Context) error {
	h := g.screenH
	if h == 0 {
		h = 720
	}
	ctx.Window("Parameters", image.Rect(10, 10, 10+panelWidth, h-10), func(debugui.ContainerLayout) {
		g.parameterUI(ctx)
	})
	w := g.screenW
	if w == 0 {
		w = 1280
	}
	ctx.Window("Controls", image.Rect(w-panelWidth-10, 10, w-10, h-10), func(debugui.ContainerLayout) {
		g.controlUI(ctx)
	})
	return nil
}

func (g *game) parameterUI(ctx *debugui.Context) {
	p := g.panel
	var nodes func(ns []p2lrt.GUINode)
	nodes = func(ns []p2lrt.GUINode) {
		ctx.Loop(len(ns), func(k int) {
			n := ns[k]
			if n.Kind == p2lrt.GUIParameter {
				g.paramWidget(ctx, n.Parameter)
				return
			}
			label := groupLabel(n)
			ctx.Header(label, n.Open, func() {
				if n.ARGB != 0 {
					colorBar(ctx, argb(n.ARGB))
				}
				nodes(n.Children)
			})
		})
	}
	nodes(p.tree)
	if len(p.missing) > 0 {
		ctx.Header("Other parameters", len(p.tree) == 0, func() {
			ctx.Loop(len(p.missing), func(k int) { g.paramWidget(ctx, p.missing[k]) })
		})
	}
}

// paramWidget draws the slider of parameter i, or the joystick it heads.
func (g *game) paramWidget(ctx *debugui.Context, i int) {
	m, p := g.model, g.panel
	if i < 0 || i >= m.Parameters().Len() {
		return
	}
	ctx.IDScope(m.Parameters().At(i).ID, func() {
		if v, ok := p.joyOf[i]; ok {
			g.joystickWidget(ctx, i, v)
		}
		q := m.Parameters().At(i)
		ctx.SetGridLayout([]int{110, -1}, nil)
		ctx.Text(paramLabel(m, i))
		step := float64(q.Max-q.Min) / 200
		ctx.SliderF(&p.values[i], float64(q.Min), float64(q.Max), step, 2).On(func() {
			p.values[i] = p.snap(m, i, p.values[i])
			g.rig.SetParameter(i, float32(p.values[i]))
		})
		ctx.SetGridLayout(nil, nil)
	})
}

// joystick is the state of one 2D control.
type joystick struct {
	bounds image.Rectangle
	active bool
}

// joystickWidget is a square pad driving parameters h (x) and v (y, up).
func (g *game) joystickWidget(ctx *debugui.Context, h, v int) {
	m, p := g.model, g.panel
	js := p.joys[h]
	if js == nil {
		js = &joystick{}
		p.joys[h] = js
	}
	ctx.SetGridLayout([]int{-1}, []int{110})
	ctx.GridCell(func(b image.Rectangle) {
		js.bounds = image.Rect(b.Min.X+(b.Dx()-b.Dy())/2, b.Min.Y, b.Min.X+(b.Dx()+b.Dy())/2, b.Max.Y)
		mx, my := ebiten.CursorPosition()
		in := image.Pt(mx, my).In(js.bounds)
		if ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) {
			if in {
				js.active = true
			}
		} else {
			js.active = false
		}
		qh, qv := m.Parameters().At(h), m.Parameters().At(v)
		if js.active {
			fx := clamp01(float64(mx-js.bounds.Min.X) / float64(js.bounds.Dx()))
			fy := clamp01(float64(js.bounds.Max.Y-my) / float64(js.bounds.Dy()))
			p.values[h] = p.snap(m, h, float64(qh.Min)+fx*float64(qh.Max-qh.Min))
			p.values[v] = p.snap(m, v, float64(qv.Min)+fy*float64(qv.Max-qv.Min))
			g.rig.SetParameter(h, float32(p.values[h]))
			g.rig.SetParameter(v, float32(p.values[v]))
		}
		ctx.DrawOnlyWidget(func(screen *ebiten.Image) {
			r := js.bounds
			vector.DrawFilledRect(screen, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), color.RGBA{30, 30, 40, 255}, false)
			cxm, cym := float32(r.Min.X+r.Dx()/2), float32(r.Min.Y+r.Dy()/2)
			vector.StrokeLine(screen, float32(r.Min.X), cym, float32(r.Max.X), cym, 1, color.RGBA{90, 90, 110, 255}, false)
			vector.StrokeLine(screen, cxm, float32(r.Min.Y), cxm, float32(r.Max.Y), 1, color.RGBA{90, 90, 110, 255}, false)
			fx := (p.values[h] - float64(qh.Min)) / float64(qh.Max-qh.Min)
			fy := (p.values[v] - float64(qv.Min)) / float64(qv.Max-qv.Min)
			x := float32(r.Min.X) + float32(fx)*float32(r.Dx())
			y := float32(r.Max.Y) - float32(fy)*float32(r.Dy())
			vector.DrawFilledCircle(screen, x, y, 5, color.RGBA{240, 150, 170, 255}, true)
		})
	})
	ctx.SetGridLayout(nil, nil)
	ctx.Text(fmt.Sprintf("%s / %s (2D)", paramLabel(m, h), paramLabel(m, v)))
}

// colorBar draws a thin bar in a group's label color.
func colorBar(ctx *debugui.Context, c color.Color) {
	var bounds image.Rectangle
	ctx.SetGridLayout([]int{-1}, []int{6})
	ctx.GridCell(func(b image.Rectangle) {
		bounds = b
		ctx.DrawOnlyWidget(func(screen *ebiten.Image) {
			vector.DrawFilledRect(screen, float32(bounds.Min.X), float32(bounds.Min.Y+1), float32(bounds.Dx()), 4, c, false)
		})
	})
	ctx.SetGridLayout(nil, nil)
}

func argb(v uint32) color.Color {
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), uint8(v >> 24)}
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// controlUI: clips, expressions, pose, behaviors, advanced mode, lip sync,
// background and reset.
func (g *game) controlUI(ctx *debugui.Context) {
	m, r := g.model, g.rig
	ctx.Header("Clips", true, func() {
		groups := clipGroups(m)
		ctx.Loop(len(groups), func(k int) {
			gr := groups[k]
			name := gr.name
			if name == "" {
				name = "(no group)"
			}
			ctx.Text(name)
			ctx.Loop(len(gr.clips), func(j int) {
				c := gr.clips[j]
				label := m.Clips().At(c).Name
				if label == "" {
					label = m.Clips().At(c).ID
				}
				if r.Layer(0).Clip() == c {
					label = "> " + label
				}
				ctx.Button(label).On(func() { r.Layer(0).Start(c) })
			})
		})
		ctx.SetGridLayout([]int{-1, -1}, nil)
		ctx.Button("Stop").On(func() { r.Layer(0).Stop() })
		ctx.Checkbox(&g.loopClip, "Loop")
		ctx.SetGridLayout(nil, nil)
		if c := r.Layer(0).Clip(); c >= 0 {
			ctx.Text(fmt.Sprintf("%s  %.2f / %.2f s", m.Clips().At(c).ID, r.Layer(0).Time(), m.Clips().At(c).Duration))
		}
		ctx.Text("Events:")
		ctx.Loop(len(g.events), func(k int) { ctx.Text(g.events[len(g.events)-1-k]) })
	})
	ctx.Header("Expressions", true, func() {
		ctx.Button("Neutral").On(func() {
			r.Expressions().Clear()
			for i := range g.panel.stacked {
				g.panel.stacked[i] = false
			}
		})
		ctx.SetGridLayout([]int{-2, -1}, nil)
		ctx.Loop(m.Expressions().Len(), func(k int) {
			e := m.Expressions().At(k)
			label := e.Name
			if label == "" {
				label = e.ID
			}
			ctx.Button(label).On(func() {
				r.Expressions().Set(k)
				for i := range g.panel.stacked {
					g.panel.stacked[i] = i == k
				}
			})
			ctx.Checkbox(&g.panel.stacked[k], "stack").On(func() {
				if g.panel.stacked[k] {
					r.Expressions().Add(k)
				} else {
					r.Expressions().Remove(k)
				}
			})
		})
		ctx.SetGridLayout(nil, nil)
	})
	if m.HitAreas().Len() > 0 {
		ctx.Header("Hit areas", true, func() {
			ctx.Loop(m.HitAreas().Len(), func(k int) {
				label, group := hitAreaLabel(m, k), m.TapGroup(k)
				if slices.Contains(m.ClipGroups(), group) {
					ctx.Button(label + " (" + group + ")").On(func() { g.tapArea(k) })
				} else {
					ctx.Text(label + " (no " + group + " group)")
				}
			})
		})
	}
	if pose, _ := m.Pose(); len(pose.Groups) > 0 {
		ctx.Header("Pose", true, func() {
			ctx.Loop(len(pose.Groups), func(gi int) {
				pg := pose.Groups[gi]
				ctx.Text(fmt.Sprintf("group %d", gi+1))
				ctx.Loop(len(pg.Entries), func(ei int) {
					part := m.Parts().At(pg.Entries[ei].Part)
					label := part.Name
					if label == "" {
						label = part.ID
					}
					ctx.Button(label).On(func() { r.ShowPose(gi, ei) })
				})
			})
		})
	}
	ctx.Header("Behaviors", true, func() {
		for _, b := range []struct {
			bit  p2l.Behavior
			name string
		}{{p2l.BehaviorBlink, "Blink"}, {p2l.BehaviorBreath, "Breath"}, {p2l.BehaviorLookAt, "Look at mouse"}, {p2l.BehaviorLipSync, "Lip sync"}} {
			on := r.Behaviors()&b.bit != 0
			ctx.IDScope(b.name, func() {
				ctx.Checkbox(&on, b.name).On(func() {
					if on {
						r.SetBehaviors(r.Behaviors() | b.bit)
					} else {
						r.SetBehaviors(r.Behaviors() &^ b.bit)
					}
				})
			})
		}
		ctx.Checkbox(&g.physics, "Physics")
	})
	ctx.Header("Advanced mode", m.AdvancedAvailable() != 0, func() { g.advancedUI(ctx) })
	ctx.Header("Lip sync", true, func() {
		ctx.Button("Speak (bundled voice)").On(func() {
			if err := g.speak("speech.ogg", assets.Speech); err != nil {
				g.message = err.Error()
			}
		})
		ctx.Text("or drop a WAV/OGG/MP3 file")
		ctx.SetGridLayout([]int{70, -1}, nil)
		ctx.Text("Manual")
		ctx.SliderF(&g.lipManual, 0, 1, 0.01, 2)
		ctx.Text("Gain")
		ctx.SliderF(&g.lipGain, 0, 20, 0.1, 1)
		ctx.SetGridLayout(nil, nil)
		if g.voice != nil {
			if silent, why := g.voice.Silent(); silent {
				ctx.Text("no audio output: " + why + " (silent clock)")
			}
		}
	})
	ctx.Header("View", true, func() {
		ctx.SetGridLayout([]int{30, -1}, nil)
		for i, n := range []string{"R", "G", "B"} {
			ctx.IDScope(n, func() {
				ctx.Text(n)
				ctx.SliderF(&g.bg[i], 0, 1, 0.01, 2)
			})
		}
		ctx.SetGridLayout(nil, nil)
		ctx.Text("wheel: zoom, right-drag: pan")
		ctx.Button("Reset").On(g.reset)
	})
}

// advancedUI lists the model's extension features with a toggle each, or
// the reason a feature cannot be switched on.
func (g *game) advancedUI(ctx *debugui.Context) {
	m, r := g.model, g.rig
	avail := m.AdvancedAvailable()
	if e := g.prepErr.Load(); e != nil {
		ctx.Text("extension data: " + *e)
	}
	for _, f := range []struct {
		bit  p2l.Features
		name string
	}{{p2lrt.FeatureSkin, "Runtime skinning"}, {p2lrt.FeatureExactLinks, "Exact links"}, {p2lrt.FeatureSim, "Live simulation"}, {p2lrt.FeatureCollision, "Collision"}} {
		ctx.IDScope(f.name, func() {
			if avail&f.bit == 0 {
				ctx.Text(f.name + ": " + unavailableReason(m, f.bit))
				return
			}
			on := r.Advanced()&f.bit != 0
			ctx.Checkbox(&on, f.name).On(func() {
				bits := r.Advanced() &^ f.bit
				if on {
					bits |= f.bit
				}
				r.SetAdvanced(bits)
			})
		})
	}
}

// unavailableReason says why an advanced feature is not available.
func unavailableReason(m *p2l.Model, bit p2l.Features) string {
	switch bit {
	case p2lrt.FeatureSkin:
		skins, ok := m.Skins()
		if !ok {
			return "the file has no SKIN chunk"
		}
		if len(skins.Meshes) == 0 {
			return "the SKIN chunk skins no mesh"
		}
	case p2lrt.FeatureExactLinks:
		bones, ok := m.Bones()
		if !ok {
			return "the file has no BONE chunk"
		}
		if len(bones.Arcs) == 0 {
			return "the BONE chunk has no arcs"
		}
	case p2lrt.FeatureSim:
		sims, ok := m.Simulations()
		if !ok {
			return "the file has no SIMS chunk"
		}
		if len(sims.Sims) == 0 {
			return "the SIMS chunk has no simulation"
		}
	case p2lrt.FeatureCollision:
		if _, ok := m.Collision(); !ok {
			return "the file has no COLL chunk"
		}
		if m.AdvancedAvailable()&p2lrt.FeatureSim == 0 {
			return "needs live simulation, which is unavailable"
		}
		return "no simulation uses a collider"
	}
	return "its chunk depends on a chunk the file lacks"
}

// hitAreaLabel is the text of hit area i: its name (a model3's HitAreas[].Name),
// else its id.
func hitAreaLabel(m *p2l.Model, i int) string {
	if a := m.HitAreas().At(i); a.Name != "" {
		return a.Name
	}
	return m.HitAreas().At(i).ID
}

// clipGroup is the clips of one group, in file order.
type clipGroup struct {
	name  string
	clips []int
}

// clipGroups groups the clips by their group name, groups in order of first
// appearance.
func clipGroups(m *p2l.Model) []clipGroup {
	var gs []clipGroup
	idx := map[string]int{}
	for i, c := range m.Clips().All() {
		k, ok := idx[c.Group]
		if !ok {
			k = len(gs)
			idx[c.Group] = k
			gs = append(gs, clipGroup{name: c.Group})
		}
		gs[k].clips = append(gs[k].clips, i)
	}
	return gs
}
