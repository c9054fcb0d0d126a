# train.tcl — bench/projects/tcl.sh's training mix over the log corpus of
# bench/projects/logs.py: string manipulation (split, trim, map, case,
# first/last/range, reverse, repeat, is, format, append, join) and list
# sorting (lsort -dictionary, -integer, -unique, -index, -command) in
# blocks of 200 lines; one summary line per measure.
# tclsh train.tcl CORPUS
set f [open [lindex $argv 0]]
fconfigure $f -encoding utf-8
set lines [split [read -nonewline $f] \n]
close $f

proc bylen {a b} {
    set d [expr {[string length $a] - [string length $b]}]
    if {$d != 0} { return $d }
    return [string compare $a $b]
}

set chars 0; set upper 0; set paths 0; set mails 0; set digits 0
set hash 0; set sorted 0; set uniq 0; set blk {}; set nblk 0
set longest ""
foreach line $lines {
    set w [split $line " "]
    set lv [string trim [lindex $w 2] {[]}]
    set u [string toupper [lindex $w 4]]
    incr chars [string length $line]
    set m [string map {user U cache C retry R socket S " an " " "} $line]
    if {[string first "mail" $m] >= 0} {
        incr mails
        set at [string last "@" $m]
        set dom [string range $m [expr {$at + 1}] end]
        append blk [string reverse $dom] ","
    }
    set p [string first "path=" $line]
    if {$p >= 0} {
        set e [string first " " $line $p]
        set path [string range $line [expr {$p + 5}] [expr {$e - 1}]]
        incr paths [llength [split $path /]]
    }
    foreach x $w {
        if {[string is digit -strict [string trimright $x ms]]} { incr digits }
        if {[string is upper -strict [string index $x 0]]} { incr upper }
    }
    set key [format "%-6s|%5s|%s" $lv [string tolower $u] [string repeat * [string length $lv]]]
    set hash [expr {($hash * 31 + [string length $key] + [scan [string index $key 0] %c]) % 1000000007}]
    lappend block $line
    if {[llength $block] == 200} {
        incr nblk
        # sort the block's words, ids and lines several ways
        set words {}
        set ids {}
        set recs {}
        foreach l $block {
            foreach x [split $l " "] { if {$x ne ""} { lappend words $x } }
            if {[regexp {id=([0-9]+)} $l -> id]} { lappend ids $id }
            lappend recs [list [lindex [split $l " "] 4] [string length $l] $l]
        }
        set s [lsort -dictionary $words]
        set s2 [lsort -unique $words]
        set n [lsort -integer -decreasing $ids]
        set r [lsort -index 1 -integer [lsort -index 0 $recs]]
        set c [lsort -command bylen [lrange $s2 0 149]]
        incr sorted [llength $s]
        incr uniq [llength $s2]
        if {[string length [lindex $c end]] > [string length $longest]} { set longest [lindex $c end] }
        set hash [expr {($hash + [lindex $n 0] + [string length [join [lrange $s 0 9] ""]] + [lindex $r 0 1]) % 1000000007}]
        set block {}
        set blk ""
    }
}
puts "lines [llength $lines] chars $chars"
puts "mails $mails paths $paths digits $digits upper $upper"
puts "blocks $nblk sorted $sorted unique $uniq longest [string length $longest]"
puts "hash $hash"
