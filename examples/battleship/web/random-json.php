<?php
// A botsarena Battleship bot in the arena's JSON variant: the arena POSTs a
// JSON body whose "board" holds the parameters (numbers as strings) and,
// on play-turn, your_strikes and his_strikes. The bot answers
// {"name":…,"boats":["x1,y1-x2,y2",…]} to init and {"play":"x,y"} to each
// play-turn. Serve it:
//   PHP_CLI_SERVER_WORKERS=4 php -S 127.0.0.1:8080 -t examples/battleship/web
// and play it: judge match --game battleship-botsarena http+json://127.0.0.1:8080/random-json.php BOT
$m = json_decode(file_get_contents('php://input'), true);
$b = $m['board'];
$w = (int)$b['width'];
$h = (int)$b['height'];
if ($m['action'] === 'init') {
    // Ships down, one per column from the left, longest first, at random y.
    $boats = [];
    $x = 0;
    for ($len = 6; $len >= 1; $len--) {
        for ($n = 0; $n < (int)$b['ship' . $len]; $n++) {
            $y = rand(0, $h - $len);
            $boats[] = sprintf('%d,%d-%d,%d', $x, $y + $len - 1, $x, $y);
            $x++;
        }
    }
    echo json_encode(['name' => 'random-json', 'boats' => $boats]);
    exit;
}
// Shoot a random cell not shot yet.
$shot = [];
foreach ($b['your_strikes'] as $s) {
    $shot[$s['target']] = true;
}
do {
    $t = rand(0, $w - 1) . ',' . rand(0, $h - 1);
} while (isset($shot[$t]) && count($shot) < $w * $h);
echo json_encode(['play' => $t]);
