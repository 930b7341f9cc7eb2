// Package ebitenp2l draws PSD2Live .p2lrt characters (package p2l) with
// Ebitengine, exactly as the CPU reference renderer (p2l/render) draws them,
// and cheaply enough for dozens of characters per frame.
//
// # Game-loop integration
//
// Load a model once, make one Character per on-screen character, advance it
// in Update and draw it in Draw:
//
//	type Game struct {
//		hero *ebitenp2l.Character
//	}
//
//	func (g *Game) Update() error {
//		g.hero.Update(1 / float64(ebiten.TPS()))
//		return nil
//	}
//
//	func (g *Game) Draw(screen *ebiten.Image) {
//		var o ebitenp2l.DrawOptions
//		o.GeoM.Scale(0.5, 0.5) // canvas pixels to screen pixels
//		o.GeoM.Translate(100, 40)
//		g.hero.Draw(screen, &o)
//	}
//
//	func (g *Game) Layout(w, h int) (int, int) { return w, h }
//
//	func main() {
//		model, err := p2l.LoadFile("hero.p2lrt")
//		if err != nil {
//			log.Fatal(err)
//		}
//		g := &Game{hero: ebitenp2l.NewCharacter(model)}
//		g.hero.Rig().SetBehaviors(p2l.AllBehaviors) // blink, breath, look-at…
//		g.hero.Rig().Play(0)                        // clips, expressions: see p2l.Rig
//		if err := ebiten.RunGame(g); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// A *p2l.Model is immutable and shared: characters of the same model share
// its texture pages on the GPU (uploaded premultiplied by the first one).
// Everything that animates a character is on its *p2l.Rig (Character.Rig):
// clips, expressions, parameters, behaviors (blink, breath, look-at, lip
// sync), hit areas. LookAtScreen aims the look-at behavior at a screen
// point, measured from the character's face; Tap plays the tap group of the
// hit area under a screen point; MeshAt says whether a screen point is on
// her drawn pixels (HitOptions makes HitTest and Tap count only those), and
// DragTap tells a drag from a tap (package ebitenp2l/mascot puts her on the
// desktop with them). NewVoice plays a sound through the
// character: every Update moves the mouth with the samples being heard
// (level and vowel, package p2l/lipsync), also without a sound device. Character.Update calls Rig.Update; to pose a rig
// yourself, call Rig.Evaluate (or UpdateStages) instead and Draw shows the
// last evaluation. ScreenToCanvas, CanvasToScreen and HitTest map points
// through the GeoM of the last Draw, for look-at targets and clicks;
// BoneGeoM attaches sprites to the bones of the advanced mode. Package
// ebitenp2l/sound reads the audio files voices play (sound.Decode) and
// guesses whether there is a sound output.
//
// # Lifetimes
//
// As with Ebitengine's images, nothing needs to be released by hand: a
// character the game drops is released after the garbage collector finds
// it unreachable, the model's textures with its last character and the
// pooled offscreens with the last character of all. Character.Deallocate
// releases a character's share at once (like ebiten.Image.Deallocate; the
// character stays usable and takes its textures again when drawn).
// Cleanups run on a goroutine of the runtime, so they only queue the
// images; the next Draw of any character (or Batch.Draw, or Deallocate)
// deallocates them on the game goroutine.
//
// Draw and Deallocate must run on the game's goroutine (in Update or
// Draw), like every Ebitengine drawing call; tests run inside the game
// loop as Ebitengine's own do.
//
// # How a character is drawn
//
// Meshes go straight into the destination through DrawOptions.GeoM: there
// is no whole-character offscreen, so a character stays sharp at any zoom.
// One Kage program (shaders/mesh.kage) draws every plain mesh; per-mesh
// opacity and multiply/screen colors travel in the vertex attributes
// (ColorR..A, and Custom0..3 for calls with a screen colour; the others
// pack the vertex flags beside the opacity, and masked ones carry the
// vertex's position in Custom0..1), the shader samples with imageSrc0UnsafeAt and
// filters bilinearly itself, and no uniform is read, so consecutive meshes
// on one texture page with the same blend state go out in one
// DrawTrianglesShader call and consecutive calls (several characters) merge
// into one Ebitengine command. Normal+Over and the Compatible Add/Multiply
// modes use hardware blending; every other blend/alpha combination copies
// the destination under its bounds and composites in shaders/composite.kage
// with the CPU renderer's formulas (consecutive ones whose areas do not
// overlap share the copy). Masks are exact: a coverage image holds the
// maximum texture alpha of the mask meshes (rendered with a max blend once
// per mask set and frame), or for a Cubism model their union
// 1 − ∏(1 − α) (p2l.Model.UnitesMasks); inverted masks use 1 − coverage. Isolated groups
// draw into pooled offscreen layers (one page per nesting depth, groups as
// sub-images of it, drawn innermost first before the main pass) and are
// then composited with their colors, opacity, masks and modes. A steady
// frame allocates nothing in this package. A frame with exactly the inputs
// of the frame before (same destination, characters, rig outputs and
// options) submits the recorded calls of that frame again without planning
// or building them: a crowd standing still costs about what Ebitengine's
// own per-vertex work costs. When no other frame has drawn into the pooled
// images since, such a replay also leaves out its coverage and layer
// draws, which are still there: one Batch per frame gets the most of it.
//
// docs/EBITEN.md describes the design, the verification and the limits.
package ebitenp2l
