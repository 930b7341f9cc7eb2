// Package p2l reads, writes, evaluates and animates PSD2Live .p2lrt character
// models.
//
// A Model is a file prepared for evaluation, immutable: load it once with
// Load, LoadFile or LoadFS (or make one of a p2lrt.File with NewModel, which
// copies the file) and share it between any number of goroutines. A Rig is
// one playing instance of a model (parameter values, clips, physics state);
// create one per character with Model.NewRig and use it from one goroutine.
// The file's data types, reader and writer are package p2l/p2lrt; tools
// that edit a model work on a copy of its file (Model.File) and make a new
// model.
//
//	model, err := p2l.LoadFile("hiyori.p2lrt")
//	if err != nil { ... }
//	rig := model.NewRig()
//	rig.SetParameterByID("ParamAngleX", 15)
//	rig.Evaluate()
//	for _, i := range rig.RenderOrder() {
//		vertices := rig.MeshVertices(i) // canvas pixels, y down
//		...
//	}
//
// The file format is described in docs/FORMAT.md, the evaluation rules in
// docs/EVALUATION.md.
package p2l
