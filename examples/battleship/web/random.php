<?php
// A botsarena Battleship bot: the arena POSTs form fields (act=init to
// place the fleet, act=fight to shoot), the bot answers the fleet as a
// JSON list of ships "x1,y1-x2,y2", then each shot as "x,y". Serve it:
//   php -S 127.0.0.1:8080 -t examples/battleship/web
// and play it: judge match --game battleship-botsarena http://127.0.0.1:8080/random.php BOT
$w = (int)$_POST['width'];
$h = (int)$_POST['height'];
if ($_POST['act'] === 'init') {
    // Ships across, one per row from the top, longest first, at random x.
    $ships = [];
    $y = 0;
    for ($len = 6; $len >= 1; $len--) {
        for ($n = 0; $n < (int)$_POST['ship' . $len]; $n++) {
            $x = rand(0, $w - $len);
            $ships[] = sprintf('%d,%d-%d,%d', $x, $y, $x + $len - 1, $y);
            $y++;
        }
    }
    echo json_encode($ships);
    exit;
}
// Shoot a random cell not shot yet.
$shot = [];
foreach (json_decode($_POST['your_strikes'], true) as $s) {
    $shot[$s['target']] = true;
}
do {
    $t = rand(0, $w - 1) . ',' . rand(0, $h - 1);
} while (isset($shot[$t]) && count($shot) < $w * $h);
echo $t;
