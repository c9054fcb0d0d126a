# test.tcl — bench/projects/tcl.sh's held-out mix over the log corpus of
# bench/projects/logs.py: dicts (dict incr, lappend, update, for, filter)
# and arrays (incr, array names, get, unset), regexp with captures and
# -all -inline, regsub, and arithmetic loops (integer and floating point
# expr, a sieve, a recursive proc, wide integers); one line per measure.
# tclsh test.tcl CORPUS
set f [open [lindex $argv 0]]
fconfigure $f -encoding utf-8
set lines [split [read -nonewline $f] \n]
close $f

set levels [dict create]
set byuser [dict create]
array set took {}
array set words {}
set mails 0; set caps 0; set subs 0
foreach line $lines {
    if {![regexp {^(\d+)-(\d+)-(\d+) (\d+):(\d+):(\d+) \[(\w+)\] user (\w+) (.*)$} $line -> y mo d h mi s lv u rest]} continue
    dict incr levels $lv
    dict lappend byuser $u [scan $mo %d]
    if {[regexp {took (\d+)ms} $rest -> ms]} {
        if {![info exists took($u)]} { set took($u) 0 }
        incr took($u) $ms
    }
    if {[regexp {mail ([a-z]+)\.([a-z]+)@([a-z.]+)} $rest -> a b dom]} {
        incr mails
        dict update byuser $u v { lappend v $dom }
    }
    foreach x [regexp -all -inline {\m[[:alpha:]]{4,}\M} $rest] { incr words($x) }
    incr caps [llength [regexp -all -inline {[[:upper:]]} $rest]]
    incr subs [regsub -all {[0-9]+} $rest # out]
}
set out {}
dict for {k v} $levels { lappend out "$k=$v" }
puts "levels [lsort $out]"
set tot 0
foreach u [lsort [dict keys $byuser]] {
    set l [dict get $byuser $u]
    set mo [lsearch -all -inline -regexp $l {^\d+$}]
    set tot [expr {$tot + [tcl::mathop::+ {*}$mo]}]
    puts "user $u [llength $l] took $took($u)"
}
puts "months $tot mails $mails caps $caps subs $subs"
set n 0; set big 0
foreach k [array names words] { incr n; if {$words($k) > 1000} { incr big } }
foreach k [array names words -glob {[a-c]*}] { unset words($k) }
puts "words $n frequent $big left [array size words]"
set d2 [dict filter [dict create {*}[array get words]] script {k v} { expr {$v % 2 == 1} }]
puts "odd [dict size $d2]"

# arithmetic loops, scaled by the corpus
set N [expr {[llength $lines] * 2}]
set sieve [lrepeat [expr {$N + 1}] 1]
set primes 0
for {set i 2} {$i <= $N} {incr i} {
    if {[lindex $sieve $i]} {
        incr primes
        for {set j [expr {$i * $i}]} {$j <= $N} {incr j $i} { lset sieve $j 0 }
    }
}
proc fib {n} { if {$n < 2} { return $n }; expr {[fib [expr {$n - 1}]] + [fib [expr {$n - 2}]]} }
set depth [expr {min(22, 10 + int(log($N + 1)))}]
set x 0.0; set w 1
for {set i 1} {$i <= $N} {incr i} {
    set x [expr {$x + sqrt($i) / ($i % 7 + 1) - sin($i * 0.001)}]
    set w [expr {($w * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF}]
}
puts "primes $primes fib([expr {$depth}]) [fib $depth] x [format %.6f $x] w [expr {$w % 1000003}]"
