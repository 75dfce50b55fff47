module github.com/schedopt/schedopt

go 1.26.8

require github.com/spf13/pflag v1.0.9

require gonum.org/v1/gonum v0.17.0 // indirect
