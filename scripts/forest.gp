# forest.gp - a forest plot of `pcbench compare`'s tables for one scenario and workload:
# per table, each preset's %change of ops/s against the base, its 95% ci as a bar, and its
# verdict as colour and point type; for `pcbench plot` (which writes the data file):
#
#   gnuplot -c forest.gp DATA OUT TITLE NROWS XMIN XMAX XLABEL
#
# DATA   one record per row, top to bottom: y (1, 2, ...), "label", %change, ci low, ci
#        high, class, "verdict", "text" (%change, ci and verdict as compare prints them),
#        "table" (compare's table title); class 0 is a table's header row (its threads,
#        placement, host and base; "?" for the numbers), 1 improved, 2 regressed, 3 n.s.
#        (also small), 4 no verdict (also n/a)
# OUT    the PNG to write
# TITLE  the plot title (scenario, workload, host, date)
# NROWS  how many rows
# XMIN, XMAX  the %change range (0 is inside it)
# XLABEL the x axis: what %change is
data = ARG1
n = int(ARG4)
xmin = real(ARG5)
xmax = real(ARG6)
# at least 440 pixels high: room for the axis labels beside a table or two
h = 190 + 24 * n
set terminal pngcairo size 1500, (h > 440 ? h : 440) noenhanced font ",11"
set output ARG2
set title ARG3
set datafile missing "?"
set xlabel ARG7
set ylabel "preset, per table"
set y2label "%change [95% ci] verdict"
set xrange [xmin:xmax]
set yrange [n + 0.5 : 0.5]
set y2range [n + 0.5 : 0.5]
set ytics nomirror scale 0
set y2tics nomirror scale 0
set format x "%+.0f%%"
set xtics out
set grid xtics
# The key under the x label, so that each axis label stays by its axis.
set bmargin 6
set key at screen 0.5, screen 0.01 center bottom horizontal
set arrow from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb "gray30"
# Okabe-Ito colours, and a point type per class: told apart without colour too.
cls_name(k) = word("improved regressed n.s. no_verdict", k)
cls_colour(k) = word("#0072B2 #D55E00 #7F7F7F #000000", k)
cls_pt(k) = word("7 5 6 12", k) + 0
cls_dt(k) = k == 4 ? 2 : 1
plot data using (xmin):1:ytic(2) with points pt -1 lc rgb "#FF000000" notitle, \
     data using (xmin):1:y2tic(8) axes x1y2 with points pt -1 lc rgb "#FF000000" notitle, \
     data using (xmin):($6 == 0 ? $1 : NaN):(xmax - xmin):(0) with vectors nohead \
	lc rgb "gray70" notitle, \
     for [k=1:4] data using ($6 == k ? $3 : NaN):1:4:5 with xerrorbars pt cls_pt(k) ps 1.5 \
	lw 2 dt cls_dt(k) lc rgb cls_colour(k) title (k == 4 ? "no verdict" : cls_name(k))
