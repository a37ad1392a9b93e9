# scaling.gp - a measure against threads for one scenario and workload, one line per
# preset (and host), for `pcbench plot` (which writes the data file and calls this script):
#
#   gnuplot -c scaling.gp DATA OUT TITLE YLABEL YFORMAT REF REFLABEL COLOURS HOSTS
#
# DATA    one block per line, blocks separated by two blank lines; the first record of a
#         block is its title (a quoted string), then records "threads median stddev": the
#         median over the ok repetitions (ops/s; ns per transfer for the c2c probe) and
#         their sample standard deviation
# OUT     the PNG to write
# TITLE   the plot title (scenario, workload, host, date)
# YLABEL  the y axis: what the median is
# YFORMAT its tic format ("%.1s%c": 1.5M)
# REF     the 1-thread median ops/s of the first block (the base preset), or "" for none:
#         the dashed reference line REF * threads is perfectly linear scaling from it
# REFLABEL  its key entry
# COLOURS per block, its colour (1, 2, ...: one per preset, the same on every host)
# HOSTS   per block, its host (1, 2, ...: one dash and point type per host)
data = ARG1
stats data using 1 nooutput
# The key under the x label (so that each axis label stays by its axis), 2 entries a row.
keyrows = ceil((STATS_blocks + (ARG6 eq "" ? 0 : 1)) / 2.0)
set terminal pngcairo size 1100, 640 + 20 * keyrows noenhanced font ",11"
set output ARG2
set bmargin 4.5 + 1.3 * keyrows
set key at screen 0.5, screen 0.01 center bottom vertical maxrows keyrows
set title ARG3
set xlabel "threads"
set ylabel ARG4
set format y ARG5
set yrange [0:*]
set grid
set xrange [STATS_min - 0.5 : STATS_max + 0.5]
if (STATS_max - STATS_min <= 16) { set xtics 1 }
hpt(i) = word("7 5 9 11 13 15", (i - 1) % 6 + 1) + 0
colour(i) = word(ARG8, i + 1) + 0
host(i) = word(ARG9, i + 1) + 0
if (ARG6 eq "") {
	plot for [i=0:STATS_blocks-1] data index i using 1:2:3 with yerrorlines lw 2 \
		lc colour(i) dt host(i) pt hpt(host(i)) title columnheader(1)
} else {
	ref = real(ARG6)
	plot for [i=0:STATS_blocks-1] data index i using 1:2:3 with yerrorlines lw 2 \
		lc colour(i) dt host(i) pt hpt(host(i)) title columnheader(1), \
		ref * x with lines dt 2 lw 1.5 lc rgb "gray40" title ARG7
}
