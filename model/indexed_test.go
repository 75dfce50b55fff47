package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/model"
)

func TestIndexedIsSprintfsName(t *testing.T) {
	for _, tc := range []struct {
		base string
		idx  []int
		want string
	}{
		{"x", nil, "x"},
		{"t", []int{1}, fmt.Sprintf("t[%d]", 1)},
		{"6.17", []int{3, 10, 12}, fmt.Sprintf("6.17[%d,%d,%d]", 3, 10, 12)},
		{"neg", []int{-5, 0}, fmt.Sprintf("neg[%d,%d]", -5, 0)},
		{strings.Repeat("long", 20), []int{123456789, 987654321}, fmt.Sprintf("%s[%d,%d]", strings.Repeat("long", 20), 123456789, 987654321)},
	} {
		if got := model.Indexed(tc.base, tc.idx...); got != tc.want {
			t.Errorf("Indexed(%q, %v) = %q, want %q", tc.base, tc.idx, got, tc.want)
		}
	}
}
