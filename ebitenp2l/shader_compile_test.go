package ebitenp2l

import "testing"

func TestShadersCompile(t *testing.T) {
	onGame(func() {
		if err := loadShaders(); err != nil {
			t.Error(err)
		}
	})
}
