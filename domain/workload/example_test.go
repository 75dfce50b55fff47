package workload

import (
	"os"
	"reflect"
	"testing"
)

func TestFig10MatchesTheInstanceFile(t *testing.T) {
	data, err := os.ReadFile("../../instances/workload-fig10.json")
	if err != nil {
		t.Fatal(err)
	}
	file, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want := Fig10()
	if err := want.Validate(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(file.Tables(), want.Tables()) {
		t.Errorf("instances/workload-fig10.json and Fig10() hold different tables")
	}
}
