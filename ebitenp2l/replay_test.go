package ebitenp2l

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"reflect"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/psd2live/p2l-ebiten/assets"
	"github.com/psd2live/p2l-ebiten/internal/synth"
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Parameters of replayModel.
const (
	rpMove  = iota // moves mesh 0's vertices
	rpFade         // mesh 1's opacity only
	rpOrder        // mesh 0's draw order only: it goes over mesh 1
	rpGroup        // the isolated group's opacity only
)

// replayModel is a small model whose parameters each change one kind of
// output (see rp*), with an isolated group, a masked mesh and a mesh that
// reads the backdrop, all on white (no page).
func replayModel() *p2l.Model {
	m := &p2lrt.File{Canvas: p2lrt.Canvas{Width: 64, Height: 64, PixelsPerUnit: -1}, Draw: p2lrt.DrawGroup{Part: -1}}
	for _, id := range []string{"move", "fade", "order", "group"} {
		m.Parameters = append(m.Parameters, p2lrt.Parameter{ID: id, Min: 0, Max: 1})
	}
	quad := func(x0, y0, x1, y1 float32, mul p2lrt.Color) int {
		m.Meshes = append(m.Meshes, p2lrt.Mesh{
			ID: string(rune('a' + len(m.Meshes))), Parent: -1, Flags: p2lrt.MeshVisible | p2lrt.MeshGeometry,
			TexturePage: -1, Positions: []float32{x0, y0, x1, y0, x0, y1, x1, y1}, UVs: make([]float32, 8),
			Indices: []uint32{0, 1, 2, 1, 3, 2}, Opacity: 1, Multiply: mul, Screen: p2lrt.Black, DrawOrder: 550,
		})
		return len(m.Meshes) - 1
	}
	ramp := func(p int, from, to float32) *p2lrt.Grid[p2lrt.ChannelValue] {
		return &p2lrt.Grid[p2lrt.ChannelValue]{Axes: []p2lrt.Axis{{Parameter: p, Keys: []float32{0, 1}}},
			Cells: []p2lrt.Cell[p2lrt.ChannelValue]{{Coord: []uint16{0}, Value: p2lrt.ChannelValue{from}}, {Coord: []uint16{1}, Value: p2lrt.ChannelValue{to}}}}
	}
	a := quad(4, 4, 40, 40, p2lrt.Color{1, 0, 0})
	b := quad(20, 20, 60, 60, p2lrt.Color{0, 0, 1})
	g := quad(30, 0, 64, 30, p2lrt.Color{0, 1, 0})
	k := quad(10, 30, 50, 50, p2lrt.Color{1, 1, 0})
	shift := make([]float32, 8)
	for i := range shift {
		shift[i] = 6
	}
	m.Meshes[a].Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: rpMove, Keys: []float32{0, 1}}},
		Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{0}, Value: make([]float32, 8)}, {Coord: []uint16{1}, Value: shift}}}
	m.Meshes[a].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelDrawOrder, Kind: p2lrt.ChannelScalar, Grid: ramp(rpOrder, 500, 600)}}
	m.Meshes[b].Channels = []p2lrt.Channel{{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: ramp(rpFade, 1, 0.4)}}
	m.Meshes[b].Blend = p2lrt.BlendLighten // reads the backdrop
	m.Meshes[k].Masks = []int{a}
	comp := p2lrt.Composite{Opacity: 1, Multiply: p2lrt.White, Blend: p2lrt.BlendScreen}
	m.Parts = []p2lrt.Part{{ID: "iso", Flags: p2lrt.PartVisible, GroupMode: p2lrt.GroupIsolated,
		Children: []p2lrt.PartChild{{Kind: p2lrt.ChildMesh, Index: g}}, Composite: comp}}
	m.Draw.Children = []p2lrt.DrawNode{{Mesh: a}, {Mesh: b}, {Group: &p2lrt.DrawGroup{Part: 0, Composite: &comp,
		Channels: []p2lrt.Channel{{ID: p2lrt.ChannelOpacity, Kind: p2lrt.ChannelScalar, Grid: ramp(rpGroup, 1, 0.5)}},
		Children: []p2lrt.DrawNode{{Mesh: g}}}}, {Mesh: k}}
	return synth.MustModel(m)
}

// TestReplay draws a scene through one Batch until its frame is replayed,
// changes one input of each kind (every DrawOptions field, a parameter
// changing only an opacity, only a draw order, only a group composite,
// only vertices, a colour, the order of the characters, the destination,
// a deallocated character, the offscreen pool's pages), and requires the next
// frame to be planned anew (not replayed) and every frame, replayed or not,
// to be bit-identical to the same scene drawn by a new Batch (which has
// nothing recorded). Each change must be visible, so that a replay of the
// previous frame would fail the comparison.
func TestReplay(t *testing.T) { onGame(func() { checkReplay(t) }) }

func checkReplay(t *testing.T) {
	def, err := assets.DefaultModel()
	if err != nil {
		t.Error(err)
		return
	}
	chars := []*Character{NewCharacter(def), NewCharacter(replayModel()), NewCharacter(def)}
	var retired []*Character
	defer func() {
		for _, c := range append(chars, retired...) {
			c.Deallocate()
		}
	}()
	opts := make([]DrawOptions, 3)
	opts[0].GeoM.Scale(0.25, 0.25)
	opts[1].GeoM.Scale(2, 2)
	opts[1].GeoM.Translate(120, 10)
	opts[2].GeoM.Scale(0.3, 0.3)
	opts[2].GeoM.Translate(150, 40) // over the model of character 1
	order := []int{0, 1, 2}
	// Targets of their own (unmanaged): Ebitengine adds a managed image's
	// place on its atlas to the vertex positions, so the same draws into two
	// managed images may round differently (up to 2/255 here, more with
	// nearest sampling) — not a difference of this package's.
	dst, other, fresh, big := ownImage(256, 256), ownImage(256, 256), ownImage(256, 256), ownImage(1024, 1024)
	defer func() { dst.Deallocate(); other.Deallocate(); fresh.Deallocate(); big.Deallocate() }()
	target := dst

	var batch Batch
	// frame draws the scene through batch and through a new Batch and
	// compares them; it returns the persistent batch's pixels and whether
	// its frame was replayed.
	frame := func(what string) ([]byte, bool) {
		target.Clear()
		n := counters.replays
		for _, i := range order {
			batch.Add(chars[i], &opts[i])
		}
		batch.Draw(target)
		replayed := counters.replays > n
		got := pixels(target)
		fresh.Clear()
		ft := fresh.SubImage(target.Bounds()).(*ebiten.Image) // the same region as target's
		var fb Batch
		for _, i := range order {
			fb.Add(chars[i], &opts[i])
		}
		n = counters.replays
		fb.Draw(ft)
		if counters.replays != n {
			t.Errorf("%s: a new Batch replayed a frame", what)
		}
		if want := pixels(ft); !bytes.Equal(got, want) {
			d, at, _ := maxDiff(got, want, target.Bounds().Dx(), func(int, int) bool { return false })
			t.Errorf("%s: the frame (replayed: %v) differs from a new Batch's by up to %d/255 at %v", what, replayed, d, at)
		}
		return got, replayed
	}
	// still draws the scene until it is replayed and returns its pixels:
	// after drawn frames of a new scene (0 or 1), the first frame equal
	// to the one before records, the next one replays.
	still := func(what string, drawn int) []byte {
		t.Helper()
		var p []byte
		for i, want := range []bool{false, false, true}[drawn:] {
			var replayed bool
			p, replayed = frame(what)
			if replayed != want {
				t.Errorf("%s, frame %d of a still scene: replayed %v, want %v", what, i+1, replayed, want)
			}
		}
		return p
	}
	rig := chars[1].Rig()
	param := func(i int, v float32) func() {
		return func() { rig.SetParameter(i, v); rig.Evaluate() }
	}
	cases := []struct {
		name   string
		change func()
		// only: the change flags (besides MeshDrawn) character 1's rig may
		// report; 0 for no check; noMesh: none may.
		only   p2l.MeshChange
		noMesh bool
	}{
		{"GeoM", func() { opts[1].GeoM.Translate(1, 0) }, 0, false},
		{"GeoM scale", func() { opts[2].GeoM.Scale(1.01, 1) }, 0, false},
		{"ColorScale", func() { opts[0].ColorScale.Scale(0.5, 1, 1, 1) }, 0, false},
		{"ColorScale alpha", func() { opts[1].ColorScale.ScaleAlpha(0.5) }, 0, false},
		{"Filter", func() { opts[0].Filter = FilterNearest }, 0, false},
		{"opacity only", param(rpFade, 1), p2l.MeshOpacityChanged, false},
		{"draw order only", param(rpOrder, 1), p2l.MeshDrawOrderChanged | p2l.MeshRenderOrderChanged, false},
		{"group composite only", param(rpGroup, 1), 0, true},
		{"vertices", param(rpMove, 1), p2l.MeshVerticesChanged, false},
		{"colour only", func() { rig.Mesh(0).SetColors(p2lrt.Color{0, 1, 1}, p2lrt.Black); rig.Evaluate() }, p2l.MeshColorsChanged, false},
		// Identity, not revision: a character of the same revision and
		// options in the place of another (its rig at another pose).
		{"another character, same revision", func() {
			twin := NewCharacter(replayModel())
			for v := float32(1); twin.Rig().Revision() < rig.Revision(); v = 1 - v {
				twin.Rig().SetParameter(rpFade, v)
				twin.Rig().Evaluate()
			}
			if twin.Rig().Revision() != rig.Revision() {
				t.Errorf("twin revision %d, want %d", twin.Rig().Revision(), rig.Revision())
			}
			retired = append(retired, chars[1])
			chars[1] = twin
		}, 0, false},
		// A model whose last character is deallocated releases its pages; a
		// new character of it (same revision, same options) uploads new
		// ones, which a replay of the old frame would not sample.
		{"new character of a released model", func() {
			old := chars[1]
			model := old.Rig().Model()
			target := old.Rig().Revision()
			old.Deallocate()
			c := NewCharacter(model)
			for v := float32(1); c.Rig().Revision() < target; v = 1 - v {
				c.Rig().SetParameter(rpGroup, v)
				c.Rig().Evaluate()
			}
			if c.Rig().Revision() != target {
				t.Errorf("new character's revision %d, want %d", c.Rig().Revision(), target)
			}
			chars[1] = c
		}, 0, false},
		{"character order", func() { order = []int{0, 2, 1} }, 0, false},
		{"one character fewer", func() { order = []int{0, 2} }, 0, false},
		{"destination", func() { target = other }, 0, false},
		{"destination sub-image", func() { target = dst.SubImage(image.Rect(8, 8, 200, 200)).(*ebiten.Image) }, 0, false},
	}
	base := still("start", 0)
	for _, c := range cases {
		c.change()
		if c.only != 0 || c.noMesh {
			for i := range rig.Model().Meshes().Len() {
				ch := rig.Mesh(i).Changes() &^ p2l.MeshDrawn
				if ch&^c.only != 0 {
					t.Errorf("%s: mesh %d reports changes %07b", c.name, i, ch)
				}
			}
		}
		p, replayed := frame(c.name)
		if replayed {
			t.Errorf("%s: the frame after the change was replayed", c.name)
		}
		if bytes.Equal(p, base) && target == dst {
			t.Errorf("%s: the change is not visible, the case tests nothing", c.name)
		}
		base = still(c.name, 1)
	}

	// A sub-image made anew for each frame is a new destination.
	sub := func() *ebiten.Image { return dst.SubImage(image.Rect(8, 8, 200, 200)).(*ebiten.Image) }
	for i := range 3 {
		target = sub()
		if _, replayed := frame("new sub-image"); replayed {
			t.Errorf("new sub-image of the same rectangle, frame %d: replayed", i+1)
		}
	}
	target = dst
	still("back to the whole destination", 0)

	// Another Batch drawing into the pool's pages between two frames (its
	// groups, masks and backdrop copies in the same regions) does not
	// matter: each frame clears what it reads.
	clobber := func(into *ebiten.Image, scale float64) {
		var ob Batch
		o := DrawOptions{}
		o.GeoM.Scale(scale, scale)
		o.ColorScale.Scale(0.2, 1, 0.5, 1)
		ob.Add(chars[1], &o)
		ob.Add(chars[0], &o)
		into.Clear()
		ob.Draw(into)
	}
	pages := pool.images(nil)
	clobber(other, 1)
	if !slices.Equal(pages, pool.images(nil)) {
		t.Error("another batch's frame replaced a pool page: the case tests nothing")
	}
	// (Not compared with base: Ebitengine may have moved the model's
	// pages on its atlas meanwhile, which moves nearest sampling at texel
	// edges; frame compares with a new Batch's frame drawn right after.)
	if _, replayed := frame("after another batch"); !replayed {
		t.Error("a still frame after another batch used the pool was not replayed")
	}
	// A page that grows is a new image: the next frame is planned anew.
	layer := pool.layer(0).img
	clobber(big, 12)
	if pool.layer(0).img == layer {
		t.Error("the layer page did not grow: the case tests nothing")
	}
	if _, replayed := frame("after the pool grew"); replayed {
		t.Error("replayed a frame whose pool page has been replaced")
	}
	still("pool grown", 2)

	// A deallocated destination stays the destination.
	dst.Deallocate()
	if _, replayed := frame("deallocated destination"); !replayed {
		t.Error("a still frame into a deallocated (same) destination was not replayed")
	}

	// A character deallocated between two frames (of a model of its own,
	// so that its pages go with it) takes new pages at the next frame:
	// that frame is not replayed (the recording samples the released
	// pages, which Ebitengine would give back cleared) and draws what the
	// character drew before.
	extra := NewCharacter(replayModel())
	chars = append(chars, extra)
	opts = append(opts, DrawOptions{})
	opts[3].GeoM.Scale(0.4, 0.4)
	opts[3].GeoM.Translate(60, 120)
	order = append(order, 3)
	withExtra := still("a fourth character", 0)
	old := extra.res
	extra.Deallocate()
	p, replayed := frame("deallocated character")
	if replayed || !bytes.Equal(p, withExtra) || extra.res == old {
		t.Errorf("deallocated character: replayed %v, pixels unchanged %v, new pages %v", replayed, bytes.Equal(p, withExtra), extra.res != old)
	}
	still("deallocated character", 1)

	// A character left out of the frame is not drawn.
	order = order[:len(order)-1]
	p, replayed = frame("character left out")
	if replayed || bytes.Equal(p, withExtra) {
		t.Errorf("character left out: replayed %v, pixels unchanged %v", replayed, bytes.Equal(p, withExtra))
	}
	still("character left out", 1)
}

// TestReplayKeepsPool: a replay whose recorder was the last to draw into
// the offscreen pool submits no draw into its coverage and layer pages
// (fewer submissions and calls than a full replay), and its frames stay
// bit-identical to a new Batch's over every background: the backdrop
// copies from the destination (character 1's Lighten mesh) are submitted
// again. Another Batch's frame in between (other contents in the same
// regions) makes the next replay submit everything.
func TestReplayKeepsPool(t *testing.T) { onGame(func() { checkReplayKeepsPool(t) }) }

func checkReplayKeepsPool(t *testing.T) {
	def, err := assets.DefaultModel()
	if err != nil {
		t.Error(err)
		return
	}
	chars := []*Character{NewCharacter(def), NewCharacter(replayModel())}
	defer func() {
		for _, c := range chars {
			c.Deallocate()
		}
	}()
	opts := make([]DrawOptions, 2)
	opts[0].GeoM.Scale(0.25, 0.25)
	opts[1].GeoM.Scale(2, 2)
	opts[1].GeoM.Translate(120, 10)
	fill := func(b *Batch) {
		for i, c := range chars {
			b.Add(c, &opts[i])
		}
	}
	backgrounds := []color.RGBA{{}, {200, 40, 40, 255}, {30, 90, 200, 255}, {60, 100, 20, 128}}
	dst, ref := ownImage(256, 256), ownImage(256, 256)
	defer func() { dst.Deallocate(); ref.Deallocate() }()
	want := make([][]byte, len(backgrounds))
	for i, bg := range backgrounds {
		ref.Fill(bg)
		var fb Batch
		fill(&fb)
		fb.Draw(ref)
		want[i] = pixels(ref)
		// Character 1's Lighten mesh over a background of one channel
		// differs from over another: a replay that drew the backdrop
		// copies from an older background would be seen.
		if i > 0 && bytes.Equal(want[i], want[i-1]) {
			t.Errorf("backgrounds %d and %d give the same frame: the test sees no backdrop", i-1, i)
		}
	}

	var batch Batch
	type counts struct{ replayed, kept, submits, calls int }
	frame := func(what string, bg int) counts {
		dst.Fill(backgrounds[bg])
		c0 := counts{counters.replays, counters.poolKept, counters.submits, rd.drawCalls}
		fill(&batch)
		batch.Draw(dst)
		if got := pixels(dst); !bytes.Equal(got, want[bg]) {
			d, at, _ := maxDiff(got, want[bg], 256, func(int, int) bool { return false })
			t.Errorf("%s: differs from a new Batch's frame by up to %d/255 at %v", what, d, at)
		}
		return counts{counters.replays - c0.replayed, counters.poolKept - c0.kept, counters.submits - c0.submits, rd.drawCalls - c0.calls}
	}
	frame("first frame", 0)
	frame("recorded frame", 1)
	var keptCalls, keptSubmits int
	for i := range 4 {
		c := frame(fmt.Sprint("replay ", i+1), (i+2)%len(backgrounds))
		if c.replayed != 1 || c.kept != 1 {
			t.Errorf("replay %d: replayed %d, kept the pool %d, want 1 and 1", i+1, c.replayed, c.kept)
		}
		keptCalls, keptSubmits = c.calls, c.submits
	}

	// Another Batch draws the characters elsewhere, larger and tinted: other
	// contents in the regions the replay would have kept.
	other := ownImage(512, 512)
	defer other.Deallocate()
	pages := pool.images(nil)
	var ob Batch
	o := DrawOptions{}
	o.GeoM.Scale(1.5, 1.5)
	o.ColorScale.Scale(0.2, 1, 0.5, 1)
	for _, c := range chars {
		ob.Add(c, &o)
	}
	ob.Draw(other)
	if !slices.Equal(pages, pool.images(nil)) {
		t.Error("another batch's frame replaced a pool page: the case tests nothing")
	}
	c := frame("replay after another batch", 1)
	if c.replayed != 1 || c.kept != 0 {
		t.Errorf("replay after another batch: replayed %d, kept the pool %d, want 1 and 0", c.replayed, c.kept)
	}
	if c.calls <= keptCalls || c.submits <= keptSubmits {
		t.Errorf("a full replay made %d calls, %d submissions; one that kept the pool %d, %d: want fewer",
			c.calls, c.submits, keptCalls, keptSubmits)
	}
	if c := frame("next replay", 2); c.kept != 1 {
		t.Error("the replay after a full one did not keep the pool")
	}
}

// ownImage is an unmanaged image (a texture of its own).
func ownImage(w, h int) *ebiten.Image {
	return ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
}

// TestReplayCharacterDraw: Character.Draw replays a still frame too, and a
// character drawn into two destinations in turn never replays (nor
// records).
func TestReplayCharacterDraw(t *testing.T) {
	onGame(func() {
		c := NewCharacter(replayModel())
		defer c.Deallocate()
		dst, dst2 := ownImage(64, 64), ownImage(64, 64)
		defer func() { dst.Deallocate(); dst2.Deallocate() }()
		var want []byte
		for i, replay := range []bool{false, false, true, true} {
			n := counters.replays
			dst.Clear()
			c.Draw(dst, nil)
			if got := counters.replays > n; got != replay {
				t.Errorf("frame %d: replayed %v, want %v", i+1, got, replay)
			}
			p := pixels(dst)
			if want == nil {
				want = p
			} else if !bytes.Equal(p, want) {
				t.Errorf("frame %d differs from the first", i+1)
			}
		}
		c.Rig().SetParameter(rpFade, 1)
		c.Rig().Evaluate()
		n := counters.replays
		dst.Clear()
		c.Draw(dst, nil)
		if counters.replays != n || bytes.Equal(pixels(dst), want) {
			t.Error("a changed opacity: replayed, or the same pixels")
		}
		c.Draw(dst2, nil)
		n, rec := counters.replays, counters.recorded
		for range 4 {
			c.Draw(dst, nil)
			c.Draw(dst2, nil)
		}
		if counters.replays != n || counters.recorded != rec {
			t.Errorf("two destinations in turn: %d replays, %d recordings", counters.replays-n, counters.recorded-rec)
		}
	})
}

// TestReplayKnowsDrawOptions fails when DrawOptions gains a field: the
// frame key (charKey, replay.go) must then compare it, and TestReplay
// change it. Likewise for Ebitengine's DrawTrianglesShaderOptions, whose
// fields submission.sameState compares.
func TestReplayKnowsDrawOptions(t *testing.T) {
	fields := func(v any) []string {
		var f []string
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			f = append(f, typ.Field(i).Name)
		}
		return f
	}
	if got, want := fields(DrawOptions{}), []string{"GeoM", "ColorScale", "Filter"}; !slices.Equal(got, want) {
		t.Errorf("DrawOptions has fields %v, the frame key knows %v: add the new ones to charKey and TestReplay", got, want)
	}
	// CompositeMode is named, never read: deprecated, left zero, not compared.
	if got, want := fields(ebiten.DrawTrianglesShaderOptions{}), []string{"CompositeMode", "Blend", "Uniforms", "Images", "FillRule", "AntiAlias"}; !slices.Equal(got, want) {
		t.Errorf("DrawTrianglesShaderOptions has fields %v, submission.sameState knows %v", got, want)
	}
}

// TestReplayAllocs: replayed frames (a still crowd), which keep the pool,
// allocate nothing in this package, like planned ones (TestDrawAllocs).
func TestReplayAllocs(t *testing.T) {
	def, err := assets.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	var s *benchScene
	onGame(func() { s = newBenchScene(def, 10) })
	defer onGame(s.dispose)
	n, kept := counters.replays, counters.poolKept
	if a := ownAllocs(20, func() { s.frame(false, false) }); a != 0 {
		t.Errorf("allocations per replayed frame: %v, want 0", a)
	}
	if got := counters.replays - n; got < 20 {
		t.Errorf("%d of 22 still frames replayed, want ≥ 20", got)
	}
	// One Batch alone: its replays after the first keep the pool.
	if got := counters.poolKept - kept; got < 19 {
		t.Errorf("%d of 22 still frames kept the pool, want ≥ 19", got)
	}
}
