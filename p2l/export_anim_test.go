package p2l

// Test hook for the animation benchmarks: the update pipeline without the
// evaluation.

// AnimateForTest runs every animation stage of an update without evaluating.
func (r *Rig) AnimateForTest(dt float64) { r.animate(dt, AllStages) }
