package p2l

// Test hooks for the advanced mode's external tests.

// SimStepsForTest returns the steps each simulation has taken.
func (r *Rig) SimStepsForTest() []int {
	if r.adv == nil {
		return nil
	}
	var n []int
	for _, s := range r.adv.sims {
		n = append(n, s.scene.StepsTaken())
	}
	return n
}

// SimCollidersForTest returns the colliders the last update placed, as the
// reference's p2l_sim_colliders lists them: canvas a, b, radius a, radius b.
func (r *Rig) SimCollidersForTest() []float32 {
	if r.adv == nil {
		return nil
	}
	var c []float32
	for _, s := range r.adv.sims {
		for _, sh := range s.shapes {
			c = append(c, sh.AX, -sh.AY, sh.BX, -sh.BY, sh.RadiusA, sh.RadiusB)
		}
	}
	return c
}
