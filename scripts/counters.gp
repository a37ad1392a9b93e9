# counters.gp - hardware counters per operation for one scenario, bars per preset, one
# panel per counter, for `pcbench plot` (which writes the data file and calls this script):
#
#   gnuplot -c counters.gp DATA OUT TITLE EVENTS NSERIES
#
# DATA    one block per counter column, blocks separated by two blank lines; the first
#         record of a block is a header: the column name, then a title and "stddev" per
#         preset; then one record per "workload t=threads" cluster: its label, then the
#         median per operation over the ok repetitions and its stddev, per preset
#         ("?" where it was not measured)
# OUT     the PNG to write
# TITLE   the plot title (scenario, host, date)
# EVENTS  the counter column names, space-separated, in block order
# NSERIES the number of presets (bar series) per block
data = ARG1
n = words(ARG4)
series = int(ARG5)
set terminal pngcairo size 1100, 80 + 340 * n noenhanced font ",11"
set output ARG2
set datafile missing "?"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.7 border -1
set yrange [0:*]
set grid ytics
# The key right of each panel, so that the x label stays under its x axis.
set key outside right top vertical
set xlabel "workload, threads"
set ylabel "events per operation"
set multiplot layout n, 1 title ARG3
do for [e=1:n] {
	ev = word(ARG4, e)
	set title ev
	plot for [i=0:series-1] data index (e - 1) \
		using (column(2 + 2 * i)):(column(3 + 2 * i)):xtic(1) title columnheader(2 + 2 * i)
}
unset multiplot
