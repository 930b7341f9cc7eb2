package character

import (
	"fmt"
	"math"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
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
	m.Bones = &p2lrt.Bones{
		Header:     p2lrt.ExtensionHeader{Feature: p2lrt.FeatureExactLinks, Hooks: p2lrt.HookBones},
		Attachable: []p2lrt.AttachableBone{{Deformer: fore, ID: "HandR"}},
	}

	// SKIN: the sleeve's axes are its keyform axes; no weights, the runtime
	// fits them from the keyforms (6 key combinations).
	m.Skins = &p2lrt.Skins{
		Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSkin, Hooks: p2lrt.HookMesh},
		Meshes: []p2lrt.Skin{{Mesh: sleeve, Axes: cloneAxes(m.Meshes[sleeve].Keyforms.Axes), Bones: []int{upper, fore}}},
	}

	// COLL: a tapered capsule along the inner edge of each hanging arm, in
	// the arm's rotation space (canvas offset from the shoulder at rest), so
	// the tails blown sideways stop at the sleeves.
	m.Collision = &p2lrt.Collision{
		Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureCollision, Hooks: p2lrt.HookSimulation, DependsOn: []string{"SIMS"}},
		Colliders: []p2lrt.Collider{
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
	m.Simulations = &p2lrt.Simulations{
		Header: p2lrt.ExtensionHeader{Feature: p2lrt.FeatureSim, Hooks: p2lrt.HookSimulation},
		Sims:   []p2lrt.Simulation{sim},
	}
	return nil
}

func cloneAxes(a []p2lrt.Axis) []p2lrt.Axis {
	out := make([]p2lrt.Axis, len(a))
	for i, x := range a {
		out[i] = p2lrt.Axis{Parameter: x.Parameter, Keys: append([]float32(nil), x.Keys...)}
	}
	return out
}
