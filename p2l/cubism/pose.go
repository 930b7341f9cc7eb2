package cubism

import "github.com/psd2live/p2l-ebiten/p2l/p2lrt"

// pose converts a pose3 file (CubismPose.create); nil when no group has a
// part of the model.
func (r *reader) pose(ids *ids, root value) *p2lrt.Pose {
	p := &p2lrt.Pose{FadeIn: r.fade(root.get("FadeInTime"), 0.5)}
	for _, grp := range r.list(root.get("Groups")) {
		var pg p2lrt.PoseGroup
		for _, en := range r.list(grp) {
			pid := r.string(en.get("Id"))
			pi, ok := ids.partIndex(pid)
			if !ok {
				// The framework keeps a placeholder part that nothing
				// draws; without it the group's next part is its first.
				r.warn(en.path+".Id", "the model has no part %q: entry skipped", pid)
				continue
			}
			pe := p2lrt.PoseEntry{Part: pi}
			for _, l := range r.list(en.get("Link")) {
				lid := r.string(l)
				li, ok := ids.partIndex(lid)
				if !ok {
					r.warn(l.path, "the model has no part %q: link skipped", lid)
					continue
				}
				pe.Linked = append(pe.Linked, li)
			}
			pg.Entries = append(pg.Entries, pe)
		}
		if len(pg.Entries) == 0 {
			r.warn(grp.path, "no part of the model in this group: group skipped")
			continue
		}
		p.Groups = append(p.Groups, pg)
	}
	if len(p.Groups) == 0 {
		r.warn("Groups", "no group with a part of the model: no pose imported")
		return nil
	}
	return p
}
