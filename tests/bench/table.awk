# The table of tests/bench/run, from the guest's bench.txt: lines
# "<figure> <key> <value>" in the order they were measured.
#
#   awk -v json=FILE -f table.awk bench.txt
#
# Each figure is judged on per-pair ratios: the i-th sample of one side
# divided by the i-th of the other, the two taken next to each other in the
# boot. Shown: the median ratio, a 95% confidence interval of that median
# (distribution-free: order statistics of the binomial(n, 1/2); below 6
# pairs the interval is [min, max] and covers less), the interquartile
# range, and a verdict against the target: "met" when the whole interval
# is on the target's side, "missed" when it is all beyond, else "unclear".
# Works with mawk (no asort, no gensub).

function sort_list(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
# quantile of the sorted a[1..n], linear between order statistics
function quantile(a, n, q,   h, lo) {
	if (n == 0) return ""
	h = 1 + (n - 1) * q
	lo = int(h)
	return lo >= n ? a[n] : a[lo] + (h - lo) * (a[lo + 1] - a[lo])
}
function median(k,   n, i, a) {
	n = cnt[k]
	for (i = 1; i <= n; i++) a[i] = val[k, i] + 0
	sort_list(a, n)
	return quantile(a, n, 0.5)
}
function has(k) { return cnt[k] > 0 }
# rank of the lower bound of a 95% interval of the median of n samples
function ci_rank(n,   k, p, cdf, i) {
	# largest k with P(Binomial(n, 1/2) <= k - 1) <= 0.025
	p = 0.5 ^ n; cdf = 0; k = 0
	for (i = 0; i <= n; i++) {
		cdf += p
		if (cdf > 0.025) break
		k = i + 1
		p = p * (n - i) / (i + 1)
	}
	return k < 1 ? 1 : k
}
# stats over r[1..nr] -> st_med, st_lo, st_hi, st_q1, st_q3, st_n
function stats(   a, i, k) {
	st_n = nr
	for (i = 1; i <= nr; i++) a[i] = r[i]
	sort_list(a, nr)
	st_med = quantile(a, nr, 0.5)
	st_q1 = quantile(a, nr, 0.25)
	st_q3 = quantile(a, nr, 0.75)
	k = ci_rank(nr)
	st_lo = a[k]
	st_hi = a[nr + 1 - k]
}
# 3 and 9: events (9: calls with entry and exit) per second of ftguard's
# record over trace-cmd's, rep by rep, from keys P.ftguard_ns and so on
function record_row(fig, p, title, target, what,   i, c, fe, te) {
	if (!has(p ".ftguard_ns") || !has(p ".tracecmd_ns"))
		return
	nr = 0
	for (i = 1; i <= cnt[p ".ftguard_ns"] && i <= cnt[p ".tracecmd_ns"]; i++)
		if (val[p ".tracecmd_events", i] > 0)
			r[++nr] = (val[p ".ftguard_events", i] / val[p ".ftguard_ns", i]) / \
				  (val[p ".tracecmd_events", i] / val[p ".tracecmd_ns", i])
	c = median(p ".calls")
	fe = median(p ".ftguard_events"); te = median(p ".tracecmd_events")
	row(fig, title, 2, target,
	    sprintf("%.0f vs %.0f%s/s; lost %d vs %d of %d", fe / (median(p ".ftguard_ns") / 1e9),
		    te / (median(p ".tracecmd_ns") / 1e9), what == "" ? " ev" : what, c - fe, c - te, c))
}
# ratios of key a over key b, pair by pair, into r[1..nr]
function pair_ratios(a, b,   i) {
	nr = 0
	for (i = 1; i <= cnt[a] && i <= cnt[b]; i++)
		if (val[b, i] + 0 != 0) r[++nr] = val[a, i] / val[b, i]
}
function verdict(target,   t) {
	if (target ~ /^<=/) {
		t = substr(target, 3) + 0
		return st_hi <= t ? "met" : st_lo > t ? "MISSED" : "unclear"
	}
	if (target ~ /^>=/) {
		t = substr(target, 3) + 0
		return st_lo >= t ? "met" : st_hi < t ? "MISSED" : "unclear"
	}
	return "-"
}
function fmt(x, d) { return sprintf("%." d "f", x) }
# row FIG WHAT DIGITS TARGET DETAIL: a row from the current stats
function row(fig, what, d, target, detail,   ci, iqr, v) {
	if (nr == 0) return
	stats()
	ci = fmt(st_lo, d) "-" fmt(st_hi, d)
	iqr = fmt(st_q1, d) "-" fmt(st_q3, d)
	v = verdict(target)
	printf "%-3s %-42s %7s %-13s %-13s %3d %-8s %-7s %s\n", fig, what, fmt(st_med, d), ci, iqr, st_n, target, v, detail
	nrow++
	rows[nrow] = sprintf("{\"figure\": %s, \"what\": \"%s\", \"ratio\": %s, \"ci95\": [%s, %s], \"iqr\": [%s, %s], \"pairs\": %d, \"target\": \"%s\", \"verdict\": \"%s\", \"detail\": \"%s\"}",
			     fig, what, fmt(st_med, 4), fmt(st_lo, 4), fmt(st_hi, 4), fmt(st_q1, 4), fmt(st_q3, 4), st_n, target, v, detail)
}
# info FIG WHAT DETAIL: a row without a ratio
function info(fig, what, detail) {
	printf "%-3s %-42s %7s %-13s %-13s %3s %-8s %-7s %s\n", fig, what, "-", "-", "-", "-", "-", "-", detail
	nrow++
	rows[nrow] = sprintf("{\"figure\": %s, \"what\": \"%s\", \"detail\": \"%s\"}", fig, what, detail)
}
function ms(ns) { return sprintf("%.1f ms", ns / 1e6) }
# perhit_row FIG KEY WHAT TARGET: the pairs of KEY.ftguard and KEY.kernel
# less their untraced brackets KEY.base and KEY.base2
function perhit_row(fig, key, what, target,   i, b, h) {
	if (!has(key ".base") || !has(key ".ftguard") || !has(key ".kernel")) return
	nr = 0
	for (i = 1; i <= cnt[key ".ftguard"] && i <= cnt[key ".kernel"]; i++) {
		b = (val[key ".base", i] + val[key ".base2", i]) / 2
		if (val[key ".kernel", i] - b > 0) r[++nr] = (val[key ".ftguard", i] - b) / (val[key ".kernel", i] - b)
	}
	b = (median(key ".base") + median(key ".base2")) / 2; h = median("meta.hits")
	row(fig, what, 3, target,
	    sprintf("%.0f vs %.0f ns/hit over %.0f ns untraced", (median(key ".ftguard") - b) / h,
		    (median(key ".kernel") - b) / h, b / h))
}

{
	k = $1 "." $2
	if (!(k in cnt)) { order[++nkeys] = k; cnt[k] = 0 }
	val[k, ++cnt[k]] = $3
}

END {
	printf "%-3s %-42s %7s %-13s %-13s %3s %-8s %-7s %s\n", "#", "figure", "ratio", "95% CI", "IQR", "n",
	       "target", "verdict", "absolute (TCG, medians)"

	# 1: loaded over the unloaded run next to it (ABBA)
	if (has("disarmed.base") && has("disarmed.loaded")) {
		pair_ratios("disarmed.loaded", "disarmed.base")
		row(1, sprintf("disarmed: syscall loop, %d sites checked", median("disarmed.sites")), 3, "<=1.01",
		    ms(median("disarmed.loaded")) " vs " ms(median("disarmed.base")) " (" median("meta.loop") " x 2 syscalls)")
	}

	# 2 and 8: (ftguard - untraced) / (kernel - untraced), the untraced
	# time the mean of the two runs bracketing the pair
	perhit_row(2, "perhit", "per-hit: fn_a ftguard vs function tracer", "<=1.0")
	perhit_row(8, "graphhit", "per-hit with returns: vs function_graph", "-")

	if (has("perhit.ftguard_noevent") && has("perhit.kernel_noevent")) {
		b = median("perhit.base_noevent"); h = median("meta.hits")
		fd = (median("perhit.ftguard_noevent") - b) / h; kd = (median("perhit.kernel_noevent") - b) / h
		bb = (median("perhit.base") + median("perhit.base2")) / 2
		fo = has("perhit.ftguard_bufoff") ? (median("perhit.ftguard_bufoff") - b) / h - fd : 0
		info(2, "per hit, split: callback / event path",
		     sprintf("ftguard %.0f + %.0f ns (%.0f of it up to the reserve), function tracer %.0f + %.0f ns", fd,
			     (median("perhit.ftguard") - bb) / h - fd, fo, kd, (median("perhit.kernel") - bb) / h - kd))
	}

	# 3 and 9: events per second of the whole process, rep by rep
	record_row(3, "record", "record: events/s vs trace-cmd record", ">=1.0", "")
	record_row(9, "grecord", "record -p function_graph vs trace-cmd", "-", " calls")

	if (has("startup.ftguard") && has("startup.tracecmd")) {
		pair_ratios("startup.ftguard", "startup.tracecmd")
		row(4, "record start-up (whole process, 1 event)", 2, "<=0.5",
		    ms(median("startup.ftguard")) " vs " ms(median("startup.tracecmd")))
	}

	if (has("startup.part_start_stop"))
		info(4, "part of it: ftguard start + stop",
		     ms(median("startup.part_start_stop")) " (select from the module's sites; check; arm; disarm)")

	# 10: call trees, -g vfs_read under dd: time from the command's start
	# to dd's first event, then dd's calls per second of its traced span
	if (has("tree.ftguard_first_ns") && has("tree.tracecmd_first_ns")) {
		pair_ratios("tree.ftguard_first_ns", "tree.tracecmd_first_ns")
		row(10, "call tree -g vfs_read: start to 1st event", 2, "-",
		    ms(median("tree.ftguard_first_ns")) " vs " ms(median("tree.tracecmd_first_ns")) "; " \
		    median("tree.ftguard_armed") " armed; whole " ms(median("tree.ftguard_ns")) " vs " ms(median("tree.tracecmd_ns")))
		nr = 0
		for (i = 1; i <= cnt["tree.ftguard_calls"] && i <= cnt["tree.tracecmd_calls"]; i++)
			if (val["tree.tracecmd_calls", i] > 0 && val["tree.ftguard_span_ns", i] > 0 && val["tree.tracecmd_span_ns", i] > 0)
				r[++nr] = (val["tree.ftguard_calls", i] / val["tree.ftguard_span_ns", i]) / \
					  (val["tree.tracecmd_calls", i] / val["tree.tracecmd_span_ns", i])
		row(10, "call tree: dd's calls/s vs trace-cmd", 2, "-",
		    sprintf("%.0f vs %.0f calls/s; calls %d vs %d, events %d vs %d, overrun %d vs %d, ftguard lost %d (%d reads)",
			    median("tree.ftguard_calls") / (median("tree.ftguard_span_ns") / 1e9),
			    median("tree.tracecmd_calls") / (median("tree.tracecmd_span_ns") / 1e9),
			    median("tree.ftguard_calls"), median("tree.tracecmd_calls"),
			    median("tree.ftguard_events"), median("tree.tracecmd_events"),
			    median("tree.ftguard_overrun"), median("tree.tracecmd_overrun"), median("tree.ftguard_lost"),
			    median("tree.reads")))
	}
	if (has("treecold.ftguard_first_ns"))
		info(10, "call tree: first record after load",
		     sprintf("start to 1st event %s, later %s (the first admits every vmlinux function)",
			     ms(median("treecold.ftguard_first_ns")), ms(median("tree.ftguard_first_ns"))))

	# 5: each ftguard run against the mean of the two cats around it
	if (has("check.ftguard") && has("check.kernel_aff")) {
		for (pass = 1; pass <= 2; pass++) {
			key = pass == 1 ? "check.ftguard" : "check.ftguard_known"
			nr = 0
			for (i = 1; i <= cnt[key] && 2 * i <= cnt["check.kernel_aff"]; i++)
				r[++nr] = val[key, i] / ((val["check.kernel_aff", 2 * i - 1] + val["check.kernel_aff", 2 * i]) / 2)
			if (pass == 1)
				row(5, sprintf("check --all: %d sites vs cat a_f_f", median("check.sites")), 2, "<=1.0",
				    ms(median(key)) " vs " ms(median("check.kernel_aff")) "; first (admits " \
				    median("check.admitted") ") " ms(median("check.first")))
			else
				row(5, "check (sites known, no -l) vs cat a_f_f", 2, "-", ms(median(key)))
		}
		if (has("check.part_kallsyms"))
			info(5, "where check goes (each read once)",
			     sprintf("start %s, kallsyms %s, sites table %s, vmallocinfo+modules %s, a_f_f %s",
				     ms(median("check.part_start")), ms(median("check.part_kallsyms")),
				     ms(median("check.part_sites")), ms(median("check.part_vmallocinfo")),
				     ms(median("check.kernel_aff"))))
		# growth: ns per checked site at 1k, 10k, all, against 1k's
		split("1000 10000 all", sizes, " ")
		base_per_site = 0
		for (s = 1; s <= 3; s++) {
			n = sizes[s]
			if (!has("check.grow_ns_" n)) continue
			per_site = median("check.grow_ns_" n) / median("check.grow_sites_" n)
			if (!base_per_site) base_per_site = per_site
			nr = 0
			for (i = 1; i <= cnt["check.grow_ns_" n]; i++)
				r[++nr] = val["check.grow_ns_" n, i] / val["check.grow_sites_" n, i] / base_per_site
			row(5, sprintf("check growth: %d sites, per site vs 1k", median("check.grow_sites_" n)), 2, "<=1.2",
			    sprintf("%.1f us/site, %s (module: %d ms)", per_site / 1e3, ms(median("check.grow_ns_" n)),
				    median("check.grow_ms_" n)))
		}
	}

	# 6: arm N cold sites, ftguard over the kernel's tracer switched on
	# (its filter set apart, and shown)
	if (has("arm.first_check"))
		info(6, "cold sites: first check after load", sprintf("%s for %d sites (%.0f us/site): each symbol proven once", ms(median("arm.first_check")),
		     median("arm.first_check_sites"), median("arm.first_check") / 1e3 / median("arm.first_check_sites")))
	split("1 100 1000 4000 10000", sizes, " ")
	for (s = 1; s <= 5; s++) {
		n = sizes[s]
		if (!has("arm.kernel_" n)) continue
		kdetail = sprintf("kernel: filter %s + on %s (%d enabled), off %s", ms(median("arm.kernel_filter_" n)),
				  ms(median("arm.kernel_" n)), median("arm.kernel_enabled_" n), ms(median("arm.kernel_off_" n)))
		if (!has("arm.ftguard_" n)) {
			info(6, sprintf("arm %d cold sites: kernel only", n), kdetail "; ftguard: above its per-CPU counter limit")
			continue
		}
		# the ftrace update: ftguard's arm less the check it repeats
		nr = 0
		for (i = 1; i <= cnt["arm.ftguard_" n] && i <= cnt["arm.kernel_" n]; i++)
			r[++nr] = (val["arm.ftguard_" n, i] - val["arm.check_" n, i]) / val["arm.kernel_" n, i]
		row(6, sprintf("arm %d cold sites: update vs tracer on", n), 2, "-",
		    sprintf("ftguard: arm %s = check %s + update; %d armed; off %s; %s", ms(median("arm.ftguard_" n)),
			    ms(median("arm.check_" n)), median("arm.ftguard_armed_" n), ms(median("arm.disarm_" n)), kdetail))
		# the disarm against the tracer's switch-off, and the floor: a
		# module's empty ops (ftg_floor.ko) switched off the same way
		pair_ratios("arm.disarm_" n, "arm.kernel_off_" n)
		fdetail = has("arm.floor_off_" n) ? sprintf("; a module's empty ops: on %s, off %s", ms(median("arm.floor_on_" n)),
							  ms(median("arm.floor_off_" n))) : ""
		row(6, sprintf("disarm %d cold sites vs tracer off", n), 2, "<=1.5",
		    sprintf("ftguard off %s, tracer off %s%s", ms(median("arm.disarm_" n)), ms(median("arm.kernel_off_" n)), fdetail))
		if (has("arm.floor_off_" n)) {
			pair_ratios("arm.floor_off_" n, "arm.kernel_off_" n)
			row(6, sprintf("disarm %d: module empty ops vs tracer", n), 2, "-",
			    "the floor: what any module's unregister costs (a dynamic ops: RCU-tasks waits)")
			pair_ratios("arm.disarm_" n, "arm.floor_off_" n)
			row(6, sprintf("disarm %d: ftguard vs module empty ops", n), 2, "-",
			    sprintf("%s vs %s", ms(median("arm.disarm_" n)), ms(median("arm.floor_off_" n))))
		}
		# what a user waits for: select + arm (check included) against
		# set_ftrace_filter + current_tracer
		if (!has("arm.select_" n)) continue
		nr = 0
		for (i = 1; i <= cnt["arm.ftguard_" n] && i <= cnt["arm.kernel_" n]; i++)
			r[++nr] = (val["arm.select_" n, i] + val["arm.ftguard_" n, i]) / (val["arm.kernel_filter_" n, i] + val["arm.kernel_" n, i])
		row(6, sprintf("arm %d cold sites: whole, vs filter + on", n), 2, "-",
		    sprintf("ftguard: select %s + arm %s; kernel: filter %s + on %s", ms(median("arm.select_" n)),
			    ms(median("arm.ftguard_" n)), ms(median("arm.kernel_filter_" n)), ms(median("arm.kernel_" n))))
	}

	# 11: the whole kernel. Memory per site, the verifier's share of one
	# CPU, arming everything, a call under it, disarming
	if (has("whole.sites_check")) {
		ns = median("whole.sites_check"); nl = median("whole.sites_load")
		sl = median("whole.slab_kb_load") - median("whole.slab_kb_before")
		vl = median("whole.vmalloc_kb_load") - median("whole.vmalloc_kb_before")
		sc = median("whole.slab_kb_check") - median("whole.slab_kb_before")
		vc = median("whole.vmalloc_kb_check") - median("whole.vmalloc_kb_before")
		info(11, sprintf("memory: %d sites after load", nl),
		     sprintf("slab +%d kB, vmalloc +%d kB (module %d B; the load's own, not per site); e1000e %s",
			     sl, vl, median("whole.module_bytes"),
			     median("whole.e1000e") ? "loaded" : "not in this guest"))
		# per site: what check --all added over the load (the load
		# itself is mostly the trace instance, whatever the sites)
		info(11, sprintf("memory: %d sites after check --all", ns),
		     sprintf("slab +%d kB, vmalloc +%d kB: %.0f B/site added by check (slab+vmalloc, %d sites; names %.0f B/site in kmalloc classes); dyn_ftrace 16",
			     sc, vc, (sc + vc - sl - vl) * 1024 / (ns - nl), ns - nl, median("whole.name_bytes") / ns))
		if (has("whole.slab_kb_armed")) {
			na = median("whole.verify_sites_all")
			info(11, sprintf("memory: %d sites armed", na),
			     sprintf("beyond check --all: slab +%d kB, vmalloc +%d kB, percpu +%d kB: %.0f B/armed site",
				     median("whole.slab_kb_armed") - median("whole.slab_kb_check"),
				     median("whole.vmalloc_kb_armed") - median("whole.vmalloc_kb_check"),
				     median("whole.percpu_kb_armed") - median("whole.percpu_kb_check"),
				     (median("whole.slab_kb_armed") - median("whole.slab_kb_check") + \
				      median("whole.vmalloc_kb_armed") - median("whole.vmalloc_kb_check") + \
				      median("whole.percpu_kb_armed") - median("whole.percpu_kb_check")) * 1024 / na))
		}
	}
	split("1 1000 10000 all", sizes, " ")
	for (s = 1; s <= 4; s++) {
		n = sizes[s]
		if (!has("whole.verify_ns_" n)) continue
		per_run = median("whole.verify_ns_" n) / median("whole.verify_runs_" n)
		per = median("whole.verify_period_ms") * 1e6
		na = median("whole.verify_sites_" n)
		# a run re-checks one slice of the armed set (0: all of it)
		sl = has("whole.verify_slice") ? median("whole.verify_slice") : 0
		nrun = sl > 0 && sl < na ? sl : na
		cyc = has("whole.verify_cycle_ms_" n) ? \
			sprintf("; %d sites a run, every site within %d ms", nrun, median("whole.verify_cycle_ms_" n)) : ""
		# the share of one CPU: a run, then a period until the next
		nr = 1; r[1] = 100 * per_run / (per + per_run)
		if (n == "all" && has("whole.verify_ns_all_bufoff"))
			info(11, "verify all armed: split",
			     sprintf("instance off %.2f ms a run; the same check disarmed %s",
				     median("whole.verify_ns_all_bufoff") / median("whole.verify_runs_all_bufoff") / 1e6,
				     ms(median("whole.check_disarmed"))))
		row(11, sprintf("verify %d armed: %% of one CPU", na), 3, n == "all" ? "<=1" : "-",
		    sprintf("%.2f ms a run every %d ms, %.2f us/site checked (%d runs)%s; %s", per_run / 1e6,
			    median("whole.verify_period_ms"), per_run / 1e3 / nrun, median("whole.verify_runs_" n), cyc,
			    (has("whole.arm_" n) ? "arm " ms(median("whole.arm_" n)) ", " : "") "disarm " ms(median("whole.disarm_" n))))
	}
	if (has("whole.ftguard_on") && has("whole.kernel_on")) {
		pair_ratios("whole.ftguard_on", "whole.kernel_on")
		row(11, "whole kernel: start -l '*' vs tracer on", 2, "<=1.2",
		    sprintf("%s vs %s; %d armed, %d enabled", ms(median("whole.ftguard_on")), ms(median("whole.kernel_on")),
			    median("whole.ftguard_armed"), median("whole.kernel_enabled")))
		if (has("whole.ftguard_check_l") && has("whole.arm_all"))
			info(11, "whole kernel: where the start goes",
			     sprintf("check -l '*' (process, select, check) %s; the module's arm force of all %s (check %s + update)",
				     ms(median("whole.ftguard_check_l")), ms(median("whole.arm_all")),
				     ms(median("whole.check_disarmed"))))
		nr = 0
		for (i = 1; i <= cnt["whole.ftguard_loop"] && i <= cnt["whole.kernel_loop"]; i++) {
			b = (val["whole.base_loop", i] + val["whole.base2_loop", i]) / 2
			if (val["whole.kernel_loop", i] - b > 0)
				r[++nr] = (val["whole.ftguard_loop", i] - b) / (val["whole.kernel_loop", i] - b)
		}
		b = (median("whole.base_loop") + median("whole.base2_loop")) / 2
		row(11, "whole kernel: per syscall vs function", 2, "<=1.0",
		    sprintf("%.0f vs %.0f ns/syscall over %.0f untraced (%d x 2 syscalls)",
			    (median("whole.ftguard_loop") - b) / (2 * median("whole.loop")),
			    (median("whole.kernel_loop") - b) / (2 * median("whole.loop")),
			    b / (2 * median("whole.loop")), median("whole.loop")))
		if (has("whole.ftguard_loop_noevent"))
			info(11, "whole kernel: per syscall, callbacks only",
			     sprintf("event off: ftguard %.0f, function tracer %.0f ns/syscall over untraced",
				     (median("whole.ftguard_loop_noevent") - b) / (2 * median("whole.loop")),
				     (median("whole.kernel_loop_noevent") - b) / (2 * median("whole.loop"))))
		if (has("whole.disarm_all_bufoff"))
			info(11, "whole kernel: disarm, instance off",
			     sprintf("ftguard's disarm of every site with its instance off %s (on: %s)",
				     ms(median("whole.disarm_all_bufoff")), ms(median("whole.disarm_all"))))
		pair_ratios("whole.ftguard_off", "whole.kernel_off")
		row(11, "whole kernel: disarm vs tracer off", 2, "<=1.5",
		    ms(median("whole.ftguard_off")) " vs " ms(median("whole.kernel_off")))
	}

	if (has("tui.refreshes_per_s"))
		info(7, "TUI --bench (synthetic events)",
		     sprintf("%s refreshes/s, %s ev/s, %s%% CPU, %s KiB peak RSS", median("tui.refreshes_per_s"),
			     median("tui.events_per_s"), median("tui.cpu_pct"), median("tui.peak_rss_kib")))

	if (has("tui_real.refreshes_per_s"))
		info(7, "TUI, vfs_read armed, dd read load",
		     sprintf("%s refreshes/s, %s ev/s read, %s lost, %s%% CPU, %s KiB peak RSS; key %s, q %s",
			     median("tui_real.refreshes_per_s"), median("tui_real.events_per_s"),
			     median("tui_real.lost"), median("tui_real.cpu_pct"),
			     median("tui_real.peak_rss_kib"), ms(median("tui_real.key_ns")),
			     ms(median("tui_real.quit_ns"))))

	if (json == "") exit
	printf "{\n  \"samples\": {\n" >json
	for (i = 1; i <= nkeys; i++) {
		k = order[i]; s = ""
		for (j = 1; j <= cnt[k]; j++) {
			v = val[k, j]
			s = s (j > 1 ? ", " : "") (v ~ /^-?[0-9.]+$/ ? v : "\"" v "\"")
		}
		printf "    \"%s\": [%s]%s\n", k, s, i < nkeys ? "," : "" >json
	}
	printf "  },\n  \"table\": [\n" >json
	for (i = 1; i <= nrow; i++) printf "    %s%s\n", rows[i], i < nrow ? "," : "" >json
	printf "  ]\n}\n" >json
}
