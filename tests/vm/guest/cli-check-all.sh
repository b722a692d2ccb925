#!/bin/sh
# ftguard check --all: offers every kernel function to ftguard.ko, then
# checks every site, core kernel and modules; all consistent on a healthy
# kernel. It leaves the count of the core kernel's ftrace records with the
# module; run again, it neither reads available_filter_functions nor offers
# anything once the module has a site for each of those records, and the
# check still covers all of them.
. /tests/lib.sh

cli_setup
# the core kernel's ftrace records: the lines without a [module], less
# the records of replaced weak functions (__ftrace_invalid_address___N)
records=$(grep -v '\[' "$FTG_TRACEFS/available_filter_functions" |
	grep -vc '^__ftrace_invalid_address__')

load_ftguard
expect_eq "vmlinux sites before --all" 0 "$(status vmlinux_sites)"
expect_eq "record count before --all" 0 "$(status vmlinux_records)"
run 0 ftguard -v check --all
err_has 'kernel functions offered'
out_has 'consistent'
first=$(status vmlinux_sites)
checked=$(awk '$1 == "last_check" { print $4 }' "$FTG_DEBUGFS/status")
expect_eq "record count left by the first --all" "$records" "$(status vmlinux_records)"
log "first --all: $first vmlinux sites of $records records, $checked sites checked, $(status rejected) rejected"

run 0 ftguard -v check --all
expect_eq "vmlinux sites after the first --all" "$records" "$first"
# said only when the module's count spared the read of the file
err_has "knows all $records kernel functions already"
grep -q 'offered' "$ERR" && { cat "$ERR"; fail "--all offered again"; }
out_has 'consistent'
expect_eq "vmlinux sites after the second --all" "$first" "$(status vmlinux_sites)"
expect_eq "sites checked by the second --all" "$checked" \
	"$(awk '$1 == "last_check" { print $4 }' "$FTG_DEBUGFS/status")"
unload_ftguard
pass
