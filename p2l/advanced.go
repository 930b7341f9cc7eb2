package p2l

import (
	"fmt"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// This file is the switchboard of the advanced mode (P2LRT_V2.md,
// "特性位与模式开关"; RUNTIME.md, "高级模式"): which feature bits a model
// carries, which a request may turn on given the dependencies, and the
// per-rig state the hooks H1–H6 read. Every hook is a no-op while its bit is
// off, so with every bit 0 a rig evaluates exactly as if the extension
// chunks were absent.

// Features is a set of advanced-mode features (Rig.SetAdvanced,
// Model.AdvancedAvailable). Its members are the extension feature bits as
// the spec numbers them: FeatureSkin, FeatureExactLinks, FeatureSim and
// FeatureCollision (model.go; untyped, because the same numbers are the
// file's ExtensionHeader.Feature).
type Features uint16

// AllFeatures is every feature this runtime supports.
const AllFeatures Features = p2lrt.FeatureSkin | p2lrt.FeatureExactLinks | p2lrt.FeatureSim | p2lrt.FeatureCollision

// featureNames are the names String gives the features, by bit.
var featureNames = [...]string{"skin", "exact-links", "sim", "collision"}

// String returns the features' names joined by "|" ("skin|sim"), "none"
// for the empty set; unknown bits are shown in hexadecimal.
func (f Features) String() string {
	if f == 0 {
		return "none"
	}
	s := ""
	for b, name := range featureNames {
		if f&(1<<b) != 0 {
			if s != "" {
				s += "|"
			}
			s += name
		}
	}
	if rest := f &^ AllFeatures; rest != 0 {
		if s != "" {
			s += "|"
		}
		s += fmt.Sprintf("%#x", uint16(rest))
	}
	return s
}

// AdvancedAvailable returns the feature bits this model's extension chunks
// carry and this runtime supports: FeatureSkin with a SKIN chunk that has
// skinned meshes, FeatureExactLinks with BONE arcs, FeatureSim with SIMS
// simulations, FeatureCollision with COLL colliders and a simulation that
// uses one. A bit whose chunk declares a dependency the file lacks (the
// header's depends_on) is not available either.
func (m *Model) AdvancedAvailable() Features {
	var bits Features
	if m == nil {
		return 0
	}
	if m.file.Skins != nil && len(m.file.Skins.Meshes) > 0 && m.depsPresent(&m.file.Skins.Header) {
		bits |= p2lrt.FeatureSkin
	}
	if m.file.Bones != nil && len(m.file.Bones.Arcs) > 0 && m.depsPresent(&m.file.Bones.Header) {
		bits |= p2lrt.FeatureExactLinks
	}
	if m.file.Simulations != nil && len(m.file.Simulations.Sims) > 0 && m.depsPresent(&m.file.Simulations.Header) {
		bits |= p2lrt.FeatureSim
	}
	if bits&p2lrt.FeatureSim != 0 && m.file.Collision != nil && len(m.file.Collision.Colliders) > 0 && m.depsPresent(&m.file.Collision.Header) {
		for i := range m.file.Simulations.Sims {
			if len(m.file.Simulations.Sims[i].Colliders) > 0 {
				bits |= p2lrt.FeatureCollision
				break
			}
		}
	}
	return bits
}

// depsPresent reports whether every chunk h depends on is in the model.
func (m *Model) depsPresent(h *p2lrt.ExtensionHeader) bool {
	for _, tag := range h.DependsOn {
		switch tag {
		case "BONE":
			if m.file.Bones == nil {
				return false
			}
		case "SKIN":
			if m.file.Skins == nil {
				return false
			}
		case "SIMS":
			if m.file.Simulations == nil {
				return false
			}
		case "COLL":
			if m.file.Collision == nil {
				return false
			}
		default:
			// A dependency on a chunk this runtime does not know: the
			// extension cannot work.
			return false
		}
	}
	return true
}

// resolveFeatures returns the bits of want that can be on together: those
// available, minus any whose dependency is off. The spec's rule is "依赖块
// 缺失或未开启时，该扩展自动停用": COLL needs SIMS on; a dependency on SKIN,
// SIMS or COLL needs that feature on; a dependency on BONE needs the chunk
// only, because virtual and attachable bones are data every mode reads
// (only BONE's arcs are switched, by FeatureExactLinks).
func (m *Model) resolveFeatures(want Features) Features {
	bits := want & m.AdvancedAvailable()
	for changed := true; changed; {
		changed = false
		drop := func(bit Features) {
			if bits&bit != 0 {
				bits &^= bit
				changed = true
			}
		}
		if bits&p2lrt.FeatureSim == 0 {
			drop(p2lrt.FeatureCollision)
		}
		check := func(bit Features, h *p2lrt.ExtensionHeader) {
			for _, tag := range h.DependsOn {
				on := true
				switch tag {
				case "SKIN":
					on = bits&p2lrt.FeatureSkin != 0
				case "SIMS":
					on = bits&p2lrt.FeatureSim != 0
				case "COLL":
					on = bits&p2lrt.FeatureCollision != 0
				}
				if !on {
					drop(bit)
				}
			}
		}
		if m.file.Skins != nil {
			check(p2lrt.FeatureSkin, &m.file.Skins.Header)
		}
		if m.file.Bones != nil {
			check(p2lrt.FeatureExactLinks, &m.file.Bones.Header)
		}
		if m.file.Simulations != nil {
			check(p2lrt.FeatureSim, &m.file.Simulations.Header)
		}
		if m.file.Collision != nil {
			check(p2lrt.FeatureCollision, &m.file.Collision.Header)
		}
	}
	return bits
}
