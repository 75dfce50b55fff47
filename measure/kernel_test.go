package measure

import (
	"errors"
	"reflect"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

func TestParseKernel(t *testing.T) {
	k, err := ParseKernel("cpu=./dgemm --n {size} --m {size}")
	if err != nil {
		t.Fatal(err)
	}
	if k.Name != "cpu" || k.Command(12) != "./dgemm --n 12 --m 12" {
		t.Fatalf("%+v → %q", k, k.Command(12))
	}
	for _, bad := range []string{"cpu", "=x {size}", "cpu=", "cpu=./dgemm", "a,b=x {size}"} {
		if _, err := ParseKernel(bad); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestParseSizes(t *testing.T) {
	cases := []struct {
		in   string
		want []int
	}{
		{"1..4", []int{1, 2, 3, 4}},
		{"3..3", []int{3}},
		{"1,2,4", []int{1, 2, 4}},
		{" 8, 2 ", []int{8, 2}},
	}
	for _, c := range cases {
		got, err := ParseSizes(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q → %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "0..3", "4..1", "1..x", "1,,2", "1,1", "-2", "1..99999999999", "a"} {
		if _, err := ParseSizes(bad); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}
