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
