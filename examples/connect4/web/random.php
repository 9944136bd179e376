<?php
// A botsarena Connect Four bot: the arena POSTs JSON, the bot answers
// JSON. Serve it with PHP's built-in server:
//   php -S 127.0.0.1:8080 -t examples/connect4/web
// and play it: judge match --game connect4 http://127.0.0.1:8080/random.php BOT
$in = json_decode(file_get_contents('php://input'), true);
header('Content-Type: application/json');
if (!is_array($in) || ($in['action'] ?? '') === 'init') {
    echo json_encode(['name' => 'randomPHP']);
    exit;
}
// board: 6 rows of 7 cells, "" "X" or "O"; row 0 is the bottom one.
$board = $in['board'];
$top = count($board) - 1;
$free = [];
foreach ($board[$top] as $col => $cell) {
    if ($cell === '') {
        $free[] = $col;
    }
}
echo json_encode(['play' => (string)$free[array_rand($free)]]);
