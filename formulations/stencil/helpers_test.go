package stencil

import "github.com/schedopt/schedopt/model"

func modelRow(r int) model.Row { return model.Row(r) }
func modelVar(v int) model.Var { return model.Var(v) }
