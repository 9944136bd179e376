package bots

import (
	"testing"

	"judge/judge/judgetest"
)

func TestMain(m *testing.M) { judgetest.Main(m) }
