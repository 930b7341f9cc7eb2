package character

import (
	"fmt"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l"
)

// This file gives the character the extension chunks of advanced mode
// (docs/ADVANCED.md): the waving arm's forearm sleeve is skinned (SKIN) and
// the sailor ribbon's tails are simulated as cloth (SIMS) between two
// capsules along the hanging arms (COLL); BONE names the waving hand as an
// attachable bone. In Cubism mode (every feature bit off) the file plays
// exactly as its keyforms say.

// The forearm's rotation about the elbow: ParamHandWave waves it by ±12°
// (keys −1, 0, 1) and ParamArmRElbow bends it 30° outwards (keys 0, 1: a
// coarse bake on purpose, so that between the keys Cubism mode shows the
// chord and skinning the arc).
var forearmAxes = []axisSpec{{"ParamHandWave", keys3}, {"ParamArmRElbow", keys01}}

// forearmAngle is the forearm's angle in degrees at the key values k of
// forearmAxes. Positive angles turn +x towards +y (clockwise on the canvas),
// so the outward bend of the raised forearm is negative.
func forearmAngle(k []float32) float64 { return 12*float64(k[0]) - 30*float64(k[1]) }

// sleeveWeight is how much a forearm-sleeve vertex at canvas height y follows
// the forearm rather than the upper arm: fully above y 945, not at all below
// y 1005 (the elbow pivot is at 985), smooth between. This is the weight the
// keyforms are baked with; the runtime fits it back from them.
func sleeveWeight(y float64) float64 {
	t := clamp((1005-y)/60, 0, 1)
	return t * t * (3 - 2*t)
}

// sleeveDeform is the forearm sleeve's baked displacement: the two-bone
// blend of staying with the upper arm and turning rigidly about the elbow
// with the forearm. At every key the skinned runtime reproduces it exactly.
func sleeveDeform(k []float32, p pt) pt {
	s, c := math.Sincos(forearmAngle(k) * math.Pi / 180)
	r := p.sub(elbowR)
	q := pt{c*r.X - s*r.Y, s*r.X + c*r.Y}.add(elbowR)
	return q.sub(p).mul(sleeveWeight(p.Y))
}

// The ribbon tails' mesh: its id and grid size (vertex v is at column
// v % (ribbonCols+1), row v / (ribbonCols+1)).
const (
	ribbonTailsID = "RibbonTails"
	ribbonCols    = 4
	ribbonRows    = 6
)

// advanced adds BONE, SKIN, SIMS and COLL. It runs after the rest of the
// model is built: the cloth builder evaluates the model at rest.
func (b *builder) advanced() error {
	m := b.m
	upper, fore := b.defIdx["ArmRWaveRot"], b.defIdx["ForearmRWaveRot"]
	sleeve := b.meshIdx["ArmRWaveFore"]

	// BONE: no virtual bones and no arcs; the waving hand's frame is
	// attachable, so a host can put something in her hand.
	m.Bones = &p2l.Bones{
		Header:     p2l.ExtensionHeader{Feature: p2l.FeatureExactLinks, Hooks: p2l.HookBones},
		Attachable: []p2l.AttachableBone{{Deformer: fore, ID: "HandR"}},
	}

	// SKIN: the sleeve's axes are its keyform axes; no weights, the runtime
	// fits them from the keyforms (6 key combinations).
	m.Skins = &p2l.Skins{
		Header: p2l.ExtensionHeader{Feature: p2l.FeatureSkin, Hooks: p2l.HookMesh},
		Meshes: []p2l.Skin{{Mesh: sleeve, Axes: cloneAxes(m.Meshes[sleeve].Keyforms.Axes), Bones: []int{upper, fore}}},
	}

	// COLL: a tapered capsule along the inner edge of each hanging arm, in
	// the arm's rotation space (canvas offset from the shoulder at rest), so
	// the tails blown sideways stop at the sleeves.
	m.Collision = &p2l.Collision{
		Header: p2l.ExtensionHeader{Feature: p2l.FeatureCollision, Hooks: p2l.HookSimulation, DependsOn: []string{"SIMS"}},
		Colliders: []p2l.Collider{
			{ID: "ArmLInner", Capsule: true, Deformer: b.defIdx["ArmLRot"], Mesh: -1, AX: -8, AY: 50, BX: 6, BY: 330, RadiusA: 12, RadiusB: 16, Friction: 0.3},
			{ID: "ArmRInner", Capsule: true, Deformer: b.defIdx["ArmRDownRot"], Mesh: -1, AX: 8, AY: 50, BX: -6, BY: 330, RadiusA: 12, RadiusB: 16, Friction: 0.3},
		},
	}

	// SIMS: the tails as cloth, the top row (under the knot) pinned to the
	// body, weak goals pulling the rest back to the painted shape. The tails
	// had no pendulum, so nothing is replaced.
	tails := b.meshIdx[ribbonTailsID]
	sim, err := p2l.ClothSimulation(m, tails, p2l.ClothOptions{
		ID:             "RibbonTails",
		Pinned:         func(v int) bool { return v <= ribbonCols },
		GoalCompliance: 0.2,
		Damping:        1,
		Colliders:      []int{0, 1},
	})
	if err != nil {
		return fmt.Errorf("ribbon simulation: %w", err)
	}
	// Grid vertices of empty cells belong to no triangle and are never
	// drawn: make them kinematic on their target instead of letting them
	// dangle on their long-range attachments.
	used := make([]bool, len(sim.InvMass))
	for _, i := range m.Meshes[tails].Indices {
		used[i] = true
	}
	for v, u := range used {
		if !u {
			sim.InvMass[v] = 0
		}
	}
	m.Simulations = &p2l.Simulations{
		Header: p2l.ExtensionHeader{Feature: p2l.FeatureSim, Hooks: p2l.HookSimulation},
		Sims:   []p2l.Simulation{sim},
	}
	return nil
}

func cloneAxes(a []p2l.Axis) []p2l.Axis {
	out := make([]p2l.Axis, len(a))
	for i, x := range a {
		out[i] = p2l.Axis{Parameter: x.Parameter, Keys: append([]float32(nil), x.Keys...)}
	}
	return out
}
