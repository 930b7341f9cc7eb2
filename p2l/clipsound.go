package p2l

// MetaSoundPrefix starts the META keys of clip sounds: the entry
// "sound.ID" holds the path of the sound file that the clip with id ID
// plays (a Cubism motion's Sound), relative to the model's directory
// (Model.Dir) with "/" separators, as external texture pages are. The
// entries are plain META, which every reader keeps and the reference
// runtime ignores; hosts play the sound when the clip starts
// (ebitenp2l.Character does).
const MetaSoundPrefix = "sound."

// ClipSound returns the sound of clip i (MetaSoundPrefix), "" when it has
// none or i is not a clip.
func (m *Model) ClipSound(i int) string {
	if m == nil || i < 0 || i >= len(m.file.Clips) {
		return ""
	}
	s, _ := m.MetaValue(MetaSoundPrefix + m.file.Clips[i].ID)
	return s
}
