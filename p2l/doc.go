// Package p2l reads, writes, evaluates and animates PSD2Live .p2lrt character
// models.
//
// A Model is a file prepared for evaluation, immutable: load it once with
// Load, LoadFile or LoadFS (or make one of a p2lrt.File with NewModel, which
// copies the file) and share it between any number of goroutines. A Rig is
// one playing instance of a model (parameter values, clips, physics state);
// create one per character with Model.NewRig and use it from one goroutine.
// The file's data types, reader and writer are package p2l/p2lrt. A
// model's records are read through its methods (Model.Meshes().At(i),
// Model.Canvas(), Model.Pose(), ...), by value; tools that edit a model
// work on a copy of its file (Model.File) and make a new model.
//
//	model, err := p2l.LoadFile("hiyori.p2lrt")
//	if err != nil { ... }
//	rig := model.NewRig()
//	angleX := model.ParameterIndex("ParamAngleX") // −1 when absent
//	rig.SetParameter(angleX, 15)
//	rig.Evaluate()
//	for _, i := range rig.RenderOrder() {
//		vertices := rig.Mesh(i).Vertices() // canvas pixels, y down
//		...
//	}
//
// # The Rig contract
//
//   - File content never panics: Load validates every count, offset and
//     index of a file and rejects what it cannot play with an error naming
//     the chunk, record and field (docs/LIMITS.md).
//   - Programmer errors panic, as the standard library's do: an index out of
//     range (a parameter, mesh, part, clip, expression, layer, pose group,
//     hit area or bone) panics with "p2l: mesh index 12 out of range
//     [0:10]"; a nil *Rig panics like any nil pointer; so does NewRig on a
//     nil *Model.
//   - Records are found one way: the Model's lookups (ParameterIndex,
//     MeshIndex, PartIndex, ClipIndex, ExpressionIndex, HitAreaIndex, ...)
//     take an id or a name and return an index, −1 when absent; every Rig
//     call takes indices. Look up once, keep the index. Only clip groups
//     are named by strings (SetIdleGroup, LayerState.PlayGroup): an unknown
//     group is a *NotFoundError listing the model's groups.
//   - Values that are not finite (NaN, ±Inf) given to a setter are ignored;
//     values out of a documented range are clamped.
//   - Numerical trouble at a pose (a model whose values overflow, so that
//     an evaluated output is not finite) is reported by Rig.Err, naming the
//     record; from then on the rig does not evaluate and its results read
//     as an empty evaluation (nil vertices, empty render order), as they do
//     before the first evaluation.
//
// Per-object state is found through small views that cost nothing to make:
// Rig.Mesh(i) (MeshState: evaluated vertices, opacity, colors, change
// flags; host color override), Rig.Part(i) (PartState), Rig.Layer(l)
// (LayerState: start, play with a priority, stop, seek, weight),
// Rig.Expressions, Rig.Physics (pendulums) and Rig.Simulation (the live
// simulation of the advanced mode) with the same verbs (Reset, SetWind).
// Feature sets are typed: Behavior, Features, Stage, MeshChange.
//
// The file format is described in docs/FORMAT.md, the evaluation rules in
// docs/EVALUATION.md.
package p2l
