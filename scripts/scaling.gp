# scaling.gp - throughput against threads for one scenario and workload, one line per
# preset, for `pcbench plot` (which writes the data file and calls this script):
#
#   gnuplot -c scaling.gp DATA OUT TITLE REF REFLABEL
#
# DATA  one block per line, blocks separated by two blank lines; the first record of a
#       block is its title (a quoted string), then records "threads median stddev": the
#       median ops/s over the ok repetitions and their sample standard deviation
# OUT   the PNG to write
# TITLE the plot title (scenario, workload, host, date)
# REF   the 1-thread median ops/s of the first block (the base preset), or "" for none:
#       the dashed reference line REF * threads is perfectly linear scaling from it
# REFLABEL  its key entry
data = ARG1
set terminal pngcairo size 1000,700 noenhanced font ",11"
set output ARG2
set title ARG3
set xlabel "threads"
set ylabel "throughput [operations/s], median of the repetitions, bars: ±1 stddev"
set format y "%.1s%c"
set yrange [0:*]
set grid
set key below left maxcols 3
stats data using 1 nooutput
set xrange [STATS_min - 0.5 : STATS_max + 0.5]
if (STATS_max - STATS_min <= 16) { set xtics 1 }
if (ARG4 eq "") {
	plot for [i=0:STATS_blocks-1] data index i using 1:2:3 with yerrorlines lw 2 pt 7 \
		title columnheader(1)
} else {
	ref = real(ARG4)
	plot for [i=0:STATS_blocks-1] data index i using 1:2:3 with yerrorlines lw 2 pt 7 \
		title columnheader(1), \
		ref * x with lines dt 2 lw 1.5 lc rgb "gray40" title ARG5
}
