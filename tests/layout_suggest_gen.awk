# layout_suggest_gen.awk - random layouts and recipes for layout_suggest.sh (awk -v seed=N
# -v n=COUNT -v dir=DIR): case N writes caseN.layout, caseN.recipe and caseN.kind ("distinct"
# when every accessed field has a (writers, readers) signature of its own, else "any").
BEGIN {
	srand(seed)
	kinds[0] = "atomic"; kinds[1] = "ptr"; kinds[2] = "plain"
	for (c = 0; c < n; c++) {
		nf = 4 + int(rand() * 9)
		lay = dir "/case" c ".layout"; rec = dir "/case" c ".recipe"
		printf "layout rnd%d\nstruct rnd size %d align %d\n", c, 0, 0 > lay
		off = 0
		body = ""
		for (i = 0; i < nf; i++) {
			if (rand() < 0.15) { sz = 16 + 8 * int(rand() * 6); k = "array" }
			else { sz = 8; k = kinds[int(rand() * 3)] }
			if (rand() < 0.2) off += 8
			name[i] = "f" i; kind[i] = k; size[i] = sz
			body = body sprintf("\t%s %d %d %s\n", name[i], off, sz, k)
			off += sz
		}
		tot = int((off + 63) / 64) * 64
		close(lay)
		printf "layout rnd%d\nstruct rnd size %d align %s\n%send\n", c, tot, (rand() < 0.5 ? 8 : 64), body > lay
		close(lay)
		distinct = (c % 2 == 0)
		for (r = 0; r < 4; r++) steps[r] = ""
		npairs = 0
		for (i = 0; i < nf; i++) {
			if (kind[i] == "array" || rand() < 0.2) continue
			if (distinct) {
				do { w = int(rand() * 5) - 1; rd = int(rand() * 4) } while (w == rd || used[c, w, rd])
				used[c, w, rd] = 1
				if (++npairs > 12) break
				if (w >= 0) steps[w] = steps[w] "; " (kind[i] == "atomic" ? "add " : "store ") name[i]
				steps[rd] = steps[rd] "; load " name[i]
			} else {
				for (r = 0; r < 4; r++) {
					x = rand()
					if (x < 0.25) steps[r] = steps[r] "; load " name[i]
					else if (x < 0.4) steps[r] = steps[r] "; " (kind[i] == "atomic" ? "rmw " : "store ") name[i]
				}
			}
		}
		for (r = 0; r < 4; r++)
			printf "role r%d: spin 1%s\n", r, steps[r] > rec
		printf "threads: r0 1, r1 1, r2 1, r3 1\n" > rec
		close(rec)
		print (distinct ? "distinct" : "any") > (dir "/case" c ".kind")
		close(dir "/case" c ".kind")
	}
}
