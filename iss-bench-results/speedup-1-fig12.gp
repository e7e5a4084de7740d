set terminal pngcairo noenhanced size 1200,500 font 'sans,10'
set output '/work/main/iss-bench-results/speedup-1-fig12.png'
set title 'split+score vs pocl, vec and scalar, single-threaded (POCL_MAX_PTHREAD_COUNT=1) (cf. paper Fig. 12)'
set ylabel 'speed-up, normalised to the fastest'
set yrange [0:1.1]
set grid ytics
set key outside right top
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -35 scale 0
plot for [i=2:4] '/work/main/iss-bench-results/speedup-1-fig12.dat' using i:xtic(1) title columnheader(i)
