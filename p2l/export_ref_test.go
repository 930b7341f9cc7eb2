package p2l

// ReferenceFixtures gives package p2l_test (reference_test.go) the
// hand-built reference-layout files of reflayout_test.go, by name.
var ReferenceFixtures = referenceFixtures
