package ebitenp2l

// counters, when not nil, counts events that only the tests check: the
// renderer's own figures are DrawCalls alone. The tests set it in
// TestMain (main_test.go); a program leaves it nil and pays one nil test
// per event. It is read and written under rd.mu, or on the game goroutine.
var counters *testCounters

// testCounters are the counts the tests read (see counters).
type testCounters struct {
	submits   int // DrawTrianglesShader submissions (a draw command may take several)
	cacheHits int // index lists taken from a model's or a character's cache (vcache.go)
	replays   int // frames replayed (replay.go)
	recorded  int // frames recorded for replay
	poolKept  int // replays that found the pool's coverage and layers as they left them

	reclaimedImages int // images of collected resources deallocated (lifetime.go)
}
