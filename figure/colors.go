package figure

import "image/color"

var (
	lightGray = color.Gray{Y: 225}
	// Phase colours of Gantt charts.
	colStartup = color.RGBA{R: 240, G: 163, B: 10, A: 255}  // orange
	colComm    = color.RGBA{R: 31, G: 119, B: 180, A: 255}  // blue
	colCompute = color.RGBA{R: 44, G: 160, B: 44, A: 255}   // green
	colWait    = color.RGBA{R: 200, G: 200, B: 200, A: 255} // gray: busy-waiting
	colIdle    = color.RGBA{R: 245, G: 245, B: 245, A: 255} // near white: idle
)
