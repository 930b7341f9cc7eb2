package ebitenp2l

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// callBounds works out, from the batching rules alone, the range of
// DrawTrianglesShader calls one frame of rig may take (the whole character
// on screen). Per target (the screen, the layer page of each nesting depth,
// shared by the groups of that depth), items are classed by state: the
// source (a model's pages are packed into one image, and a group's layer
// page is bound beside it, so meshes and group composites share it),
// fixed-function blend (fixedFunction; the table itself is
// checked against the CPU renderer by TestFixedFunctionTable) or
// backdrop-reading. hi is the count without reordering: one call per run
// of consecutive fixed-function items with equal state in one group or at
// the top level, a copy and a draw per backdrop-reading item, one clear
// per layer page. lo is what no reordering or merging can beat: on the
// screen, one copy and one draw if any item reads the backdrop (every
// fixed-function mesh that lies flat may join them), else one call per
// distinct state; on a layer page, the clear (which every item drawn over
// nothing of its group joins). Both add two calls for the mask coverage
// (clear, then draw) when anything is masked (masks no longer split runs:
// the coverage slot is per vertex). A group with opacity 0 is not drawn at
// all. none is the count with no batching at all: one call per
// fixed-function item, two per backdrop-reading item, two per masked item.
func callBounds(rig *p2l.Rig, drawable func(page int) bool) (lo, hi, none int) {
	m := rig.Model()
	type node struct {
		mesh     int
		part     int
		children []node
	}
	// Parse the commands into a tree.
	root := &node{part: -1}
	skipped := &node{part: -1} // receives the contents of groups not drawn
	stack := []*node{root}
	for _, c := range rig.RenderCommands() {
		top := stack[len(stack)-1]
		if mi, ok := c.Mesh(); ok {
			if rig.Mesh(mi).Opacity() > 0 && drawable(m.Meshes().At(mi).TexturePage) {
				top.children = append(top.children, node{mesh: mi, part: -1})
			}
		} else if part, ok := c.Group(); ok {
			if len(stack) > 1 && stack[len(stack)-1] == skipped || !(rig.Part(part).Composite().Opacity > 0) {
				// A transparent group draws nothing, not even its layer.
				stack = append(stack, skipped)
				continue
			}
			top.children = append(top.children, node{mesh: -1, part: part})
			stack = append(stack, &top.children[len(top.children)-1])
		} else if len(stack) > 1 {
			stack = stack[:len(stack)-1]
		}
	}
	type state struct {
		src      int // always 0: one model
		blend    ebiten.Blend
		backdrop bool
	}
	masked := false
	distinct := map[int]map[state]bool{} // per target depth (−1: the screen)
	backdrop := map[int]bool{}
	classify := func(b p2lrt.BlendMode, a p2lrt.AlphaMode, src int, masks bool) state {
		if masks {
			masked = true
			none++
		}
		f, ok := fixedFunction(b, a)
		if !ok {
			none += 2
			return state{src: src, backdrop: true}
		}
		none++
		return state{src: src, blend: f.blend}
	}
	var target func(n *node, depth int)
	target = func(n *node, depth int) {
		var last state
		have := false
		if distinct[depth] == nil {
			distinct[depth] = map[state]bool{}
		}
		for i := range n.children {
			ch := &n.children[i]
			var st state
			if ch.mesh >= 0 {
				mesh := m.Meshes().At(ch.mesh)
				st = classify(mesh.Blend, mesh.AlphaBlend, 0, len(mesh.Masks) > 0)
			} else {
				if len(ch.children) == 0 {
					continue
				}
				target(ch, depth+1)
				gc := rig.Part(ch.part).Composite()
				st = classify(gc.Blend, gc.AlphaBlend, 0, len(gc.MaskMeshes) > 0)
			}
			distinct[depth][st] = true
			switch {
			case st.backdrop:
				hi += 2
				backdrop[depth] = true
			case !have || last != st:
				hi++
			}
			last, have = st, !st.backdrop
		}
	}
	target(root, -1)
	for d, states := range distinct {
		switch {
		case d >= 0 && len(states) > 0:
			// The page's clear, which its first draws may join (and
			// later ones reading the backdrop: the rest may all lie flat).
			lo++
			hi++
		case backdrop[d]:
			lo += 2 // a copy and a draw, which flat meshes may join
		default:
			lo += len(states)
		}
	}
	if masked {
		lo += 2
		hi += 2
	}
	return lo, hi, none
}

// TestDefaultCharacterCalls counts the calls of one frame of the default
// character, and of ten of them, against the batching rules.
func TestDefaultCharacterCalls(t *testing.T) {
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	// Issue 17's bound for the default character.
	if n := checkCharacterCalls(t, "default character", m); n > 6 {
		t.Errorf("default character: %d draws, more than 6", n)
	}
}

// TestSynthCharacterCalls does the same on the character-scale synthetic
// model (120 meshes on two interleaved pages, random blend and alpha modes,
// masks and inverted masks, isolated, sorted and pass-through groups with
// masks and non-normal blends, culling): most runs of equal state are short
// there, so it checks the rules where they split as much as where they
// merge.
//
// It also holds issue 17's bound: at most 40 draws (50 before layers'
// first draws went without copies and flat fixed-function meshes joined
// backdrop-reading calls).
func TestSynthCharacterCalls(t *testing.T) {
	const most = 40
	if n := checkCharacterCalls(t, "synth.MustModel(synth.Character(1))", synth.MustModel(synth.Character(1))); n > most {
		t.Errorf("synth.MustModel(synth.Character(1)): %d draws, more than %d", n, most)
	}
}

// checkCharacterCalls draws one frame of one character of m, then ten
// characters drawn one by one, then ten side by side in one Batch, and
// checks the call counts against callBounds: separate Draws cost ten times
// one, a Batch of characters that do not overlap no more than one. It
// returns the draws of one character.
func checkCharacterCalls(t *testing.T, name string, m *p2l.Model) int {
	t.Helper()
	var one, oneSmall, ten, batched, meshes, lo, hi, none int
	onGame(func() {
		var cs []*Character
		for range 10 {
			cs = append(cs, NewCharacter(m))
		}
		defer func() {
			for _, c := range cs {
				c.Deallocate()
			}
		}()
		dst := blackImage(1024, 1024)
		defer dst.Deallocate()
		var o DrawOptions
		// The whole character on the target: callBounds assumes nothing is
		// clipped away.
		s := 1000 / float64(max(m.Canvas().Width, m.Canvas().Height))
		o.GeoM.Scale(s, s)
		one = calls(func() { cs[0].Draw(dst, &o) })
		ten = calls(func() {
			for _, c := range cs {
				c.Draw(dst, &o)
			}
		})
		// A quarter of the size (bounds round differently, so compare with
		// one character at that size).
		var b Batch
		var small [10]DrawOptions
		for i, c := range cs {
			small[i].GeoM.Scale(s/4, s/4)
			small[i].GeoM.Translate(float64(i%4)*256, float64(i/4)*256)
			b.Add(c, &small[i])
		}
		oneSmall = calls(func() { cs[0].Draw(dst, &small[0]) })
		batched = calls(func() { b.Draw(dst) })
		meshes = len(cs[0].Rig().RenderOrder())
		lo, hi, none = callBounds(cs[0].Rig(), func(p int) bool { return p < 0 || cs[0].TextureInfo(p) == nil })
	})
	if one < lo || one > hi {
		t.Errorf("%s: %d calls, the batching rules give %d..%d", name, one, lo, hi)
	}
	if ten != 10*one {
		t.Errorf("%s, ten characters: %d calls, want 10 × %d", name, ten, one)
	}
	if batched > oneSmall {
		t.Errorf("%s, ten characters side by side in a Batch: %d calls, more than one character's %d", name, batched, oneSmall)
	}
	if one >= none {
		t.Errorf("%s: %d calls, as many as without batching", name, one)
	}
	t.Logf("%s: %d meshes, %d draws per frame (rules: %d..%d, without batching: %d); ten characters: %d; at a quarter of the size one: %d, ten side by side in a Batch: %d", name, meshes, one, lo, hi, none, ten, oneSmall, batched)
	return one
}

// TestConformanceCalls checks the call counts of the conformance models
// (many groups, masks and backdrop-reading modes) against the rules.
func TestConformanceCalls(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(conformanceDir, "*.p2lrt"))
	for _, f := range files {
		m, err := p2l.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var n, lo, hi int
		onGame(func() {
			c := NewCharacterWithOptions(m, &Options{Textures: texture.Options{FS: os.DirFS(conformanceDir)}})
			defer c.Deallocate()
			dst := blackImage(int(m.Canvas().Width), int(m.Canvas().Height))
			defer dst.Deallocate()
			n = calls(func() { c.Draw(dst, nil) })
			lo, hi, _ = callBounds(c.Rig(), func(p int) bool { return p < 0 || c.TextureInfo(p) == nil })
		})
		if n < lo || n > hi {
			t.Errorf("%s: %d calls, the batching rules give %d..%d", filepath.Base(f), n, lo, hi)
		}
		t.Logf("%s: %d calls (rules: %d..%d)", filepath.Base(f), n, lo, hi)
	}
}
