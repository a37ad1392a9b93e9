# c2c-matrix.gp - heatmap of ns per one-way cache-line transfer between every pair of PUs,
# from a `pcbench -s c2c --matrix` run, for `pcbench plot` (which writes the data file):
#
#   gnuplot -c c2c-matrix.gp DATA OUT TITLE NCPUS
#
# DATA   one record per cell: column index, row index, median ns per transfer ("?" for a
#        pair not measured), and the OS CPU numbers of the column and the row (both
#        triangles and the diagonal are given)
# OUT    the PNG to write
# TITLE  the plot title (workload, host, date)
# NCPUS  how many PUs the matrix has
n = int(ARG4)
w = 300 + 40 * n
set terminal pngcairo size (w > 640 ? w : 640), 260 + 40 * n noenhanced font ",10"
set output ARG2
set datafile missing "?"
stats ARG1 using 3 nooutput
# numbers in white on the dark half of the palette, in black on the light half
mid = (STATS_min + STATS_max) / 2
set title ARG3
set xlabel "CPU (OS index)"
set ylabel "CPU (OS index)"
set cblabel "ns per one-way transfer (median)"
set xrange [-0.5:n - 0.5]
set yrange [n - 0.5:-0.5]
set size ratio -1
# viridis (perceptually uniform, colour-blind safe, readable in grey): dark is fast.
set palette defined (0 "#440154", 0.1 "#482475", 0.2 "#414487", 0.3 "#355f8d", \
	0.4 "#2a788e", 0.5 "#21918c", 0.6 "#22a884", 0.7 "#44bf70", 0.8 "#7ad151", \
	0.9 "#bddf26", 1 "#fde725")
set tics out
plot ARG1 using 1:2:3:xtic(4):ytic(5) with image notitle, \
     '' using 1:2:(sprintf("%.0f", $3)):($3 < mid ? 0xffffff : 0x000000) with labels \
	tc rgb variable notitle
