package ebitenp2l

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/render"
	"github.com/psd2live/p2l-ebiten/p2l/texture"
)

// callBounds works out, from the batching rules alone, the range of
// DrawTrianglesShader calls one frame of rig may take (the whole character
// on screen): one call per mask set in use (its meshes share a page); in
// every target (the screen, each group layer) one call per run of
// consecutive fixed-function items with the same source (a page, or the
// layer page of a nesting depth), blend and mask set; two calls (copy and
// draw) per item that reads the backdrop, except that consecutive ones with
// equal state may share them when their areas are disjoint (the lower
// bound). A group's composite is an item of the target around it; a group
// with opacity 0 is not drawn at all.
// Fixed-function is decided by p2l/render's FixedFunction. none is the
// count with no batching at all: one call per fixed-function item, two per
// backdrop-reading item, one coverage render per masked item.
func callBounds(rig *p2l.Rig, drawable func(page int) bool) (lo, hi, none int) {
	m := rig.Model()
	type state struct {
		src, blend int
		mask       string
	}
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
			if rig.MeshOpacity(mi) > 0 && drawable(m.Meshes[mi].TexturePage) {
				top.children = append(top.children, node{mesh: mi, part: -1})
			}
		} else if part, ok := c.Group(); ok {
			if len(stack) > 1 && stack[len(stack)-1] == skipped || !(rig.GroupComposite(part).Opacity > 0) {
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
	sets := map[string]bool{}
	maskKey := func(masks []int) string {
		if len(masks) == 0 {
			return ""
		}
		none++
		k := slices.Clone(masks)
		slices.Sort(k)
		k = slices.Compact(k)
		sets[fmt.Sprint(k)] = true
		return fmt.Sprint(k)
	}
	var target func(n *node, depth int)
	target = func(n *node, depth int) {
		var last state
		var have, lastBack bool
		for i := range n.children {
			ch := &n.children[i]
			var st state
			var fixed bool
			if ch.mesh >= 0 {
				mesh := &m.Meshes[ch.mesh]
				fixed = render.FixedFunction(mesh.Blend, mesh.AlphaBlend)
				st = state{mesh.TexturePage, int(mesh.Blend), maskKey(mesh.Masks)}
				if !fixed {
					st.blend = 100 + int(mesh.Blend)*8 + int(mesh.AlphaBlend)
				}
			} else {
				if len(ch.children) == 0 {
					continue
				}
				target(ch, depth+1)
				gc := rig.GroupComposite(ch.part)
				fixed = render.FixedFunction(gc.Blend, gc.AlphaBlend)
				st = state{-1 - depth, int(gc.Blend), maskKey(gc.MaskMeshes)}
				if !fixed {
					st.blend = 100 + int(gc.Blend)*8 + int(gc.AlphaBlend)
				}
			}
			switch {
			case fixed:
				none++
				if !have || last != st || lastBack {
					lo++
					hi++
				}
			default:
				none += 2
				hi += 2
				if !(have && lastBack && last == st) {
					lo += 2
				}
			}
			last, have, lastBack = st, true, !fixed
		}
	}
	target(root, 0)
	return lo + len(sets), hi + len(sets), none
}

// TestDefaultCharacterCalls counts the calls of one frame of the default
// character, and of ten of them, against the batching rules.
func TestDefaultCharacterCalls(t *testing.T) {
	m, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	checkCharacterCalls(t, "default character", m)
}

// TestSynthCharacterCalls does the same on the character-scale synthetic
// model (120 meshes on two interleaved pages, random blend and alpha modes,
// masks and inverted masks, isolated, sorted and pass-through groups with
// masks and non-normal blends, culling): most runs of equal state are short
// there, so it checks the rules where they split as much as where they
// merge.
func TestSynthCharacterCalls(t *testing.T) {
	checkCharacterCalls(t, "synth.Character(1)", synth.Character(1))
}

// checkCharacterCalls draws one frame of one character of m and then of ten,
// and checks the call counts against callBounds.
func checkCharacterCalls(t *testing.T, name string, m *p2l.Model) {
	t.Helper()
	var one, ten, meshes, lo, hi, none int
	onGame(func() {
		var cs []*Character
		for range 10 {
			cs = append(cs, NewCharacter(m))
		}
		defer func() {
			for _, c := range cs {
				c.Dispose()
			}
		}()
		dst := blackImage(1024, 1024)
		defer dst.Deallocate()
		var o DrawOptions
		// The whole character on the target: callBounds assumes nothing is
		// clipped away.
		s := 1000 / float64(max(m.Canvas.Width, m.Canvas.Height))
		o.GeoM.Scale(s, s)
		one = calls(func() { cs[0].Draw(dst, &o) })
		ten = calls(func() {
			for _, c := range cs {
				c.Draw(dst, &o)
			}
		})
		meshes = len(cs[0].Rig().RenderOrder())
		lo, hi, none = callBounds(cs[0].Rig(), func(p int) bool { return p < 0 || cs[0].TextureInfo(p) == nil })
	})
	if one < lo || one > hi {
		t.Errorf("%s: %d calls, the batching rules give %d..%d", name, one, lo, hi)
	}
	if ten != 10*one {
		t.Errorf("%s, ten characters: %d calls, want 10 × %d", name, ten, one)
	}
	if one >= none {
		t.Errorf("%s: %d calls, as many as without batching", name, one)
	}
	t.Logf("%s: %d meshes, %d DrawTrianglesShader calls per frame (rules: %d..%d, without batching: %d); ten characters: %d", name, meshes, one, lo, hi, none, ten)
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
			defer c.Dispose()
			dst := blackImage(int(m.Canvas.Width), int(m.Canvas.Height))
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
