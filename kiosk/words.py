"""The words of the kiosk's pages: one catalogue, in both languages, read by the server.

Every label the pages (``kiosk/static/*.js``, ``kiosk/templates/*.html``) show is looked up here
by key: ``Kiosk.t("round", {n: 3})`` in a script, ``data-t="undo"`` on an element. The pages get
the whole catalogue, both languages (a page switches language without reloading), as JSON in
their frame (``base.html``: ``<script id="words" type="application/json">``), from
:func:`page_words`. A key a page uses that is not here fails ``tests/kiosk/test_words.py``; in a
browser it logs an error and shows nothing (never the key). ``{name}`` placeholders are filled
by the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.core import Text
from engine.core.text import Language

LANGUAGES: tuple[Language, ...] = ("zh", "en")

WORDS: Mapping[str, Text] = MappingProxyType(
    {
        "round": Text("第 {n} 轮", "Round {n}"),
        "roundOf": Text("第 {n} / {of} 轮", "Round {n} of {of}"),
        "step": Text("第 {i}/{of} 步:{t}", "Step {i}/{of}: {t}"),
        "stepOf": Text("{i}/{of} {t}", "{i}/{of} {t}"),
        "on": Text("开", "On"),
        "off": Text("关", "Off"),
        "phasesDone": Text("✓ 已过{n}个阶段", "✓ {n} done"),
        "phasesMore": Text("之后还有{n}个阶段", "then {n} more"),
        "player": Text("轮到 {n} 号玩家", "Player {n} to act"),
        "playerNamed": Text("轮到{name}({n} 号玩家)", "{name} (player {n}) to act"),
        "table": Text("全体玩家", "The whole table"),
        "free": Text("任一玩家可行动", "Any player may act"),
        "everyone": Text("所有玩家同时行动", "Everyone acts at once"),
        "passed": Text("已结束:{list}", "Done: {list}"),
        "dice": Text("骰池", "Dice pool"),
        "noDice": Text("现在不用掷骰", "No dice to roll now"),
        "verdicts": Text("判定", "Verdicts"),
        "prompts": Text("请注意", "Please"),
        "log": Text("记录", "Log"),
        "camera": Text("摄像头", "Camera"),
        "controller": Text("灯光控制器", "LED controller"),
        "ok": Text("正常", "ok"),
        "simulated": Text("模拟", "simulated"),
        "lost": Text("断开", "lost"),
        "not_connected": Text("未连接", "not connected"),
        "live": Text("已连接", "live"),
        "reconnecting": Text("重新连接中…", "reconnecting…"),
        "advance": Text("确认 / 下一步", "Confirm / next"),
        "undo": Text("撤销", "Undo"),
        "menu": Text("菜单", "Menu"),
        "setup": Text("新游戏", "New game"),
        "settings": Text("设置", "Settings"),
        "tray": Text("骰盘", "Dice trays"),
        "cameraPage": Text("摄像头画面", "Camera view"),
        "calibrate": Text("校准", "Calibrate"),
        "sheets": Text("贴纸", "Stickers"),
        "pairing": Text("配对码", "Pairing code"),
        "pairHint": Text(
            "点按显示二维码;用手机扫描或输入此码即可操作",
            "touch to show the QR code; scan it with a phone, or enter this code, to control"
            " the table",
        ),
        "pairAsk": Text(
            "输入桌旁屏幕上的配对码(或扫描屏幕上的二维码)",
            "Enter the pairing code shown on the table's screen (or scan its QR code)",
        ),
        "pairQr": Text("二维码", "QR code"),
        "pairTitle": Text("配对手机", "Pair a phone"),
        "pairScan": Text(
            "用手机相机扫描二维码:打开的页面即可操作桌面",
            "Scan the QR code with a phone's camera: the page it opens can control the table",
        ),
        "pairOrCode": Text("或在手机上输入配对码 {code}", "or enter the pairing code {code} on it"),
        "pairQrAlt": Text("配对二维码", "pairing QR code"),
        "over": Text("游戏结束", "Game over"),
        "moves": Text("已记录 {n} 步", "{n} moves saved"),
        "accepted": Text("已接受", "accepted"),
        "rejected": Text("不允许", "not allowed"),
        "close": Text("关闭", "Close"),
        "back": Text("返回", "Back"),
        "save": Text("保存", "Save"),
        "start": Text("开始", "Start"),
        "players": Text("玩家人数", "Players"),
        "game": Text("游戏", "Game"),
        "name": Text("存档名(可不填)", "Save name (optional)"),
        "language": Text("语言", "Language"),
        "brightness": Text("亮度", "Brightness"),
        "sound": Text("声音", "Sound"),
        "addMs": Text("出现多久才算放下(毫秒)", "Seen this long to count as placed (ms)"),
        "removeMs": Text("消失多久才算拿走(毫秒)", "Gone this long to count as removed (ms)"),
        "saved": Text("已保存", "Saved"),
        "error": Text("出错", "Error"),
        "phases": Text("阶段", "Phases"),
        "notConnected": Text("控制器:未连接", "controller: not connected"),
        "calibrateNow": Text("现在校准", "Calibrate now"),
        "anchors": Text("定位标记", "Anchors"),
        "reprojection": Text("重投影误差", "Reprojection error"),
        "tags": Text("画面中的标记", "Tags in view"),
        "reading": Text("规则读取结果", "What the game's reader sees"),
        "download": Text("下载", "Download"),
        "console": Text("现在可以做的", "What you can do now"),
        "toAct": Text("轮到此玩家", "to act"),
        "mayAct": Text("可以行动", "may act"),
        "cameraFallback": Text(
            "摄像头读不到时,手动输入", "if the camera cannot read it, enter it here"
        ),
        "cardEffects": Text("卡牌效果", "Card effect"),
        "endsTheGame": Text("结束本局(按两次)", "Ends the game (touch twice)"),
        "doIt": Text("确定", "Do it"),
        "cancel": Text("取消", "Cancel"),
        "chooseEach": Text("请先选好每一项", "Choose each item first"),
        "diceAsk": Text("骰子掷出了什么?", "What did the dice show?"),
        "placements": Text("可放的位置:{n} 种", "{n} ways to place it"),
        "tapCells": Text("在格子上点出放的位置", "Tap the cells where the piece lies"),
        "nothingNow": Text("现在没有可做的行动", "Nothing to do right now"),
        "gameIsOver": Text(
            "游戏已结束。可在菜单中开始新游戏。", "The game is over. Start a new one from the menu."
        ),
        "sent": Text("已提交", "Sent"),
        "die": Text("第 {n} 颗", "die {n}"),
        "noPlacement": Text("这些格子不是一种放法", "These cells are not a way to place it"),
        "cellTaken": Text("这一格已被板块盖住", "A piece already covers this cell"),
        "cellNoRoom": Text("这块板块放不到这一格", "The piece cannot lie on this cell"),
        "cellLegal": Text("可以放的格子", "a cell the piece may cover"),
        "cellChosen": Text("已点选", "chosen"),
        "cellRefused": Text("不能放(点一下看原因)", "not here (touch it to see why)"),
        "touchAgain": Text(
            "再点一下选中的格子或按“确定”即可放下",
            "Touch a chosen cell again, or Do it, to place it",
        ),
        "countSome": Text("请用 + 数出要交换的东西", "Count what changes hands with +"),
        "assignAsk": Text("先点一颗骰,再点它要放的一项", "touch a die, then where it goes"),
        "placeEach": Text("请把每颗骰都放到一项上", "Place each die first"),
        "saveName": Text("存档", "Saved as"),
        "points": Text("{n} 分", "{n} points"),
        "chart": Text("每轮分数", "Points after each round"),
        "printPdf": Text("打印版", "to print"),
        "printSvg": Text("矢量图", "vector"),
        # setup page
        "stepGame": Text("游戏", "Game"),
        "stepPlayers": Text("玩家", "Players"),
        "stepOptions": Text("选项", "Options"),
        "stepCheck": Text("摆放检查", "Table check"),
        "stepCampaign": Text("战役", "Campaign"),
        "askCampaign": Text(
            "开始新战役,还是接着上次的战役?", "A new campaign, or the next session of yours?"
        ),
        "newCampaign": Text("新战役", "A new campaign"),
        "newCampaignSub": Text(
            "从第一纪元开始,创造新角色", "From the first epoch, with new characters"
        ),
        "nextSession": Text("接着上次:下一局", "Go on: the next session"),
        "noNextChallenge": Text(
            "这个战役已没有可选的挑战卡", "No challenge card can follow in this campaign"
        ),
        "askGame": Text("玩哪个游戏?", "Which game?"),
        "askSeats": Text(
            "每位玩家的名字(可不填)和颜色", "Each player's name (optional) and colour"
        ),
        "askOptions": Text("剧本和选项", "Scenario and options"),
        "askCheck": Text(
            "按清单摆好桌面,摄像头会确认", "Lay out the table as listed; the camera confirms it"
        ),
        "playersRange": Text("{min}–{max} 人", "{min}–{max} players"),
        "seatN": Text("{n}号玩家", "Player {n}"),
        "namePlaceholder": Text("{n}号玩家", "Player {n}"),
        "nameTooLong": Text(
            "{who}的名字太长:最多 {max} 个字(现在 {len} 个)",
            "{who}: the name is too long, at most {max} characters (now {len})",
        ),
        "colourTakenBy": Text("已被{who}选用", "taken by {who}"),
        "colourTakenWhy": Text(
            "{who}已选用{colour}色:请选另一种颜色,或先请对方换色",
            "{who} has taken {colour}: choose another colour, or ask them to change first",
        ),
        "kbTitle": Text("屏幕键盘", "On-screen keyboard"),
        "kbLatin": Text("ABC 字母", "ABC letters"),
        "kbChinese": Text("中文 常用字", "中文 Chinese"),
        "kbSpace": Text("空格", "Space"),
        "kbBack": Text("删除", "Delete"),
        "kbDone": Text("完成", "Done"),
        "next": Text("下一步", "Next"),
        "nextTo": Text("下一步:{step}", "Next: {step}"),
        "prev": Text("上一步", "Back"),
        "startGame": Text("开始游戏", "Start the game"),
        "yes": Text("是", "Yes"),
        "no": Text("否", "No"),
        "notSet": Text("不指定", "Not set"),
        "pickedNth": Text("第 {n} 个", "no. {n}"),
        "chooseGame": Text("请先选一个游戏", "Choose a game first"),
        "starting": Text("正在开始…", "Starting…"),
        "camOk": Text("摄像头已确认", "seen by the camera"),
        "camMissing": Text(
            "摄像头还没看到(看到 {seen}/{need})",
            "not seen by the camera yet ({seen} of {need} seen)",
        ),
        "camCount": Text("摄像头看到 {seen} 个,请目测核对", "the camera sees {seen}; check by eye"),
        "byEye": Text("摄像头查不了,请目测核对", "the camera cannot check this: check by eye"),
        "camWaiting": Text(
            "摄像头还没有画面:全部请目测核对", "No camera picture yet: check everything by eye"
        ),
        "camLive": Text(
            "摄像头画面正常,清单会自动更新", "The camera is watching; the list updates by itself"
        ),
        "camOff": Text("摄像头{state}:全部请目测核对", "Camera {state}: check everything by eye"),
        "stillMissing": Text(
            "还缺:{list}。也可以先开始,开始后再补。",
            "Still missing: {list}. You may start anyway and lay them out after.",
        ),
        "allSeen": Text("摄像头能查的都已确认。", "All the camera can check is seen."),
        "sumPlayers": Text("{n} 位玩家", "{n} players"),
        "startFailed": Text("没能开始:{why}", "Could not start: {why}"),
        # camera page: how well each sticker reads
        "healthHeading": Text("贴纸状态", "Sticker health"),
        "healthNone": Text("画面中还没有贴纸", "No sticker in view yet"),
        "healthWatching": Text("观察中…", "watching…"),
        "healthGood": Text("读得清楚", "reads well"),
        "healthWeak": Text("读得不稳", "reads poorly"),
        "healthAllGood": Text(
            "画面中的 {n} 张贴纸都读得清楚", "All {n} stickers in view read well"
        ),
        "healthSomeWeak": Text("{weak} / {n} 张贴纸读得不稳", "{weak} of {n} stickers read poorly"),
        "healthShare": Text("认出 {share}", "found {share}"),
        "healthMargin": Text("余量 {margin}", "margin {margin}"),
        "healthBits": Text("纠正 {bits} 位", "{bits} bits corrected"),
        # pack away: which of the game's pieces the camera sees (kiosk/routers/packaway.py)
        "packAway": Text("收拾装盒", "Pack away"),
        "packIntro": Text(
            "把《{title}》的全部配件摊开在摄像头下,贴纸朝上,然后点“检查”。",
            "Lay all of {title}'s components out under the camera, stickers up, then touch Check.",
        ),
        "packCheck": Text("检查", "Check"),
        "packChecking": Text("检查中…", "Checking…"),
        "packNone": Text("还没有检查过。", "Not checked yet."),
        "packAllHere": Text("{of} 件全部都在。", "All {of} pieces are here."),
        "packSomeMissing": Text(
            "{of} 件中看到 {seen} 件,缺 {n} 件。", "{seen} of {of} pieces seen: {n} missing."
        ),
        "packMissing": Text("缺少的配件", "Missing pieces"),
        "packCounts": Text("各类数量", "How many of each"),
        "packCount": Text("{seen} / {of}", "{seen} of {of}"),
        "packPicture": Text("摄像头看到的(绿框:已看到)", "What the camera saw (green: seen)"),
        "packPictureAlt": Text("检查时摄像头的画面", "The camera's picture of the check"),
        "packSheet": Text(
            "贴纸第 {n} 页:红色的是缺少的", "Sticker sheet, page {n}: missing in red"
        ),
        "packNothing": Text(
            "画面中没有《{title}》的配件:请把配件摊开在摄像头下。",
            "No piece of {title} in view: lay the components out under the camera.",
        ),
        "packNoFrame": Text("摄像头还没有画面,请稍后再试。", "No camera picture yet: try again."),
        "packAtSetup": Text("开始前查一查配件是否齐全", "Check the box is complete first"),
        # tray page
        "trayHeading": Text("骰盘:谁掷什么骰子,为什么", "Dice trays: who rolls what, and why"),
        "trayN": Text("骰盘 {n}", "Tray {n}"),
        "trayWhose": Text("{who}的骰子({n} 颗)", "{who}'s dice ({n})"),
        "trayEmpty": Text("空着", "empty"),
        "traySeat": Text("{n}号玩家", "Player {n}"),
        "trackHeading": Text("轮次灯带:每颗灯代表什么", "Round track: what each LED stands for"),
        "die_d6": Text("六面骰", "d6"),
        "die_monster": Text("怪物骰", "monster die"),
        "die_character": Text("角色骰", "character die"),
        "die_skill": Text("技能骰", "skill die"),
        "die_weather": Text("天气骰", "weather die"),
        "ledN": Text("灯 {n}", "LED {n}"),
        "ledRange": Text("灯 {a}–{b}", "LEDs {a}–{b}"),
        "roundNow": Text("第 {n} 轮:现在(闪动)", "Round {n}: now (pulsing)"),
        "roundNowOf": Text("第 {n} / {of} 轮:现在(闪动)", "Round {n} of {of}: now (pulsing)"),
        "roundsPast": Text("已过的轮(暗)", "rounds played (dim)"),
        "roundsComing": Text("还没到的轮(不亮)", "rounds to come (off)"),
        "roundMark": Text("风暴在第 {n} 轮来临(闪烁)", "the storm comes in round {n} (blinking)"),
        "accentNow": Text("昼夜:现在是{name}", "day or night: now {name}"),
        "accent_day": Text("白天(橙)", "day (amber)"),
        "accent_night": Text("黑夜(蓝紫)", "night (violet)"),
        "accentNone": Text("本游戏不分昼夜(不亮)", "this game has no day and night (off)"),
        "ledsUnused": Text("不用(不亮)", "not used (off)"),
        "phasePast": Text("已过(暗)", "done (dim)"),
        "phaseNowSeat": Text("现在,{who}的颜色({colour})", "now, in {who}'s colour ({colour})"),
        "phaseNowAll": Text("现在,全体(白色)", "now, the whole table (white)"),
        "phasesNoRoom": Text("灯带放不下各阶段", "the phases do not fit on the strip"),
        "group_round": Text("轮次", "Rounds"),
        "group_phase": Text("阶段", "Phases"),
        "group_accent": Text("昼夜", "Day"),
        "group_unused": Text("不用", "Unused"),
        "group_other": Text("其他", "Other"),
        # the timers (kiosk/timers.py): the table page, its menu, the set-up page, the tray page
        "group_timer": Text("计时条", "Timer"),
        "timer": Text("计时器", "Timer"),
        # the box (kiosk/boxes.py): the set-up page's game cards and summary
        "box": Text("盒子", "Box"),
        # the "Your box" page (kiosk/routers/box.py, kiosk/static/box.js)
        "yourBox": Text("你的盒子", "Your box"),
        "boxCopyLink": Text("录入我的盒子 →", "Copy my box →"),
        "boxKinds": Text("盒中印刷的内容", "What is printed in the box"),
        "boxCopy": Text("录入", "Copy"),
        # in place of Copy on a kind this page does not copy: it comes in with a box file
        "boxByFile": Text("从文件导入", "by file"),
        "boxCount": Text("{mine}/{total}", "{mine}/{total}"),
        "boxExport": Text("下载盒子文件", "Download the box"),
        "boxImport": Text("导入盒子文件", "Bring in a box file"),
        "boxImported": Text("导入了{n}项", "Took {n} items"),
        "boxTooLarge": Text("文件太大,不是盒子文件", "The file is too large to be a box"),
        "boxImportFailed": Text(
            "没有导入,盒子文件有问题:", "Nothing taken; the box file has problems:"
        ),
        "boxPick": Text(
            "点左边要录入的一类。把要录入的版图放到摄像头下。",
            "Touch a kind on the left to copy it. Put the board to copy under the camera.",
        ),
        # for a game none of whose printed items this page copies (Stonesaga's)
        "boxOnlyFile": Text(
            "这个游戏的盒子用盒子文件录入:点“下载盒子文件”,在电脑上改好,再点“导入盒子文件”。",
            "This game's box comes in as a box file: touch “Download the box”, edit it on a"
            " computer, then touch “Bring in a box file”.",
        ),
        "boxWaiting": Text("等待摄像头画面…", "Waiting for the camera…"),
        "boxNoBoard": Text(
            "摄像头下没有看到潜艇版图:把要录入的潜艇版图放到摄像头下,贴纸朝上",
            "No submarine board under the camera: put the board to copy under it, stickers up",
        ),
        "boxNoPiece": Text(
            "把一个板块放到潜艇版图的格子上(贴纸朝上,摆正),再点“重新拍照”",
            "Lay a piece squarely on the board's cells, sticker up, then touch “Take again”",
        ),
        "boxAskew": Text(
            "板块没有摆正:请对齐格子", "The piece is not square: line it up with the cells"
        ),
        "boxRetake": Text("重新拍照", "Take again"),
        "boxBoardTitle": Text("{board} · 潜艇布局{n}", "{board} · submarine layout {n}"),
        "boxPieceTitle": Text("{piece}:点它盖住的格子", "{piece}: touch the cells it covers"),
        "boxTouches": Text("已触摸 {n} 次", "Touches: {n}"),
        "boxToolUnusable": Text("不可用格", "Unusable cell"),
        "boxToolStart": Text("起始格", "Start cell"),
        "boxToolJoin": Text("并入上一个图标", "Join to last icon"),
        "boxToolArea": Text("矩形区域(点两角)", "Area (touch two corners)"),
        "boxToolDiagonal": Text("对角线区域(点两端)", "Diagonal (touch both ends)"),
        "boxNotDiagonal": Text("这两格不在一条对角线上", "Those two cells are not on one diagonal"),
        "boxToolErase": Text("擦除", "Erase"),
        "boxIcons": Text("奖励图标:选一种,再点格子", "Reward icons: pick one, then touch cells"),
        "boxAreaReward": Text(
            "区域奖励:选一种,再点区域的两角", "Area reward: pick one, then touch two corners"
        ),
        "boxSecondCorner": Text(
            "再点区域的另一角(另一端)", "Now touch the area's other corner (end)"
        ),
        "boxSave": Text("保存为我的", "Save as mine"),
        "boxCardTitle": Text("卡名(可不填)", "Printed title (may stay empty)"),
        "boxTileN": Text("地图板块{n}", "Map tile {n}"),
        "boxPortal": Text("传送门", "Portal"),
        "boxLayoutTitle": Text(
            "{what}:按剧本卡摆好地图板块(背面朝上),摄像头读出布局",
            "{what}: lay the map tiles as the card shows (face down); the camera reads the layout",
        ),
        "boxLayoutSay": Text(
            "读到{n}块背面朝上的板块和传送门;生态域:{biomes}。位置按阅读顺序依次命名为A、B、C",
            "Read {n} face-down tiles and the portal; biomes: {biomes}."
            " Places are named A, B, C and on in reading order",
        ),
        "boxOffGrid": Text(
            "这些板块没有对齐半块板块的位置:{tiles}。摆正后点“重新拍照”",
            "These tiles are not on a half-tile step: {tiles}."
            " Line them up, then touch “Take again”",
        ),
        "boxNoPortal": Text(
            "摄像头下没有看到传送门板块:按剧本卡摆好地图,传送门也放上",
            "The portal tile is not under the camera: lay the map as the card shows, portal too",
        ),
        "boxTilesTitle": Text(
            "地图板块的生态域:点每块板块印着的生态域",
            "Map tiles' biomes: touch the biome each tile shows",
        ),
        "boxTilesSay": Text(
            "已录入{n}/{of}块;摄像头下可以同时放几块,翻到生态域一面朝上",
            "{n} of {of} tiles copied; put several under the camera at once, biome side up",
        ),
        "boxNoTile": Text(
            "摄像头下没有看到地图板块:把板块放到摄像头下,贴纸朝上",
            "No map tile under the camera: put tiles under it, stickers up",
        ),
        "boxGiveUp": Text("放弃", "Give up"),
        "boxNeedStart": Text(
            "还没有起始格:选“起始格”,再点它", "No start cell yet: pick “Start cell”, then touch it"
        ),
        "boxSaved": Text("已保存:{what}(用了{n}次触摸)", "Saved: {what} ({n} touches)"),
        "boxSaveFailed": Text("没有保存,检查未通过:", "Not saved; the check found:"),
        "boxAreaLine": Text("区域{n}:{cells}格 · {reward}", "Area {n}: {cells} cells · {reward}"),
        "boxDraftOf": Text("未保存的录入:{what}", "Not saved yet: {what}"),
        "timerOff": Text("不计时", "Off"),
        "timerTurn": Text("每回合限时", "Per turn"),
        "timerBudget": Text("每人总时长(棋钟)", "Chess clock: each player's time for the game"),
        "timerTurnTime": Text("每回合 {t}", "{t} per turn"),
        "timerBudgetTime": Text("每人共 {t}", "{t} per player"),
        "phaseTimer": Text("大家同时行动的阶段限时", "Phases everyone plays at once"),
        "phaseTimerTime": Text("每阶段 {t}", "{t} per phase"),
        "timerPause": Text("暂停计时", "Pause the timer"),
        "timerResume": Text("继续计时", "Resume the timer"),
        "timerButtons": Text(
            "菜单打开时,按撤销键也能暂停或继续计时",
            "While the menu is open, the Undo button pauses or resumes the timer",
        ),
        "timerPaused": Text("已暂停", "paused"),
        "timeTotals": Text("各人用时", "Time on turns"),
        "timerLedsLeft": Text("{who}:剩余时间", "{who}: time left"),
        "timerLedsGone": Text("已用去的时间(不亮)", "time used (off)"),
        "timerLedsOver": Text("{who}:时间到(全部闪烁)", "{who}: time is up (all blinking)"),
        # issue 38: the table check counts no simulated picture; a kiosk with no game yet
        "camSimulated": Text(
            "合成桌面不是摄像头:全部请目测核对",
            "The synthetic table is no camera: check everything by eye",
        ),
        "noGameSetup": Text("开一局 ›", "Set up a game ›"),
        # issue 38, the table page's console: every seat's moves in view when all act at once
        "everyoneAtOnce": Text("大家同时行动", "Everyone at once"),
        "linkLost": Text("连接中断,正在重连", "Connection lost, reconnecting"),  # whole: no "…"
        # issue 39, the calibrate page: stickers for the lens before calibrating, the lens after
        "calLensAsk": Text(
            "校准前:除四角的定位标签外,在桌上任意位置再放至少 {need} 枚贴纸"
            "(哪个游戏的贴纸都行),摄像头靠它们校正镜头",
            "Before you calibrate, lay at least {need} stickers anywhere on the table besides"
            " the four corner anchors (any game's stickers will do): they let the camera"
            " correct its lens",
        ),
        "calLensSeen": Text(
            "除四角外看到 {n} 枚贴纸(至少 {need} 枚才能校正镜头)",
            "{n} stickers seen besides the corners ({need} or more let it correct the lens)",
        ),
        "calLensSeenOne": Text(
            "除四角外看到 1 枚贴纸(至少 {need} 枚才能校正镜头)",
            "1 sticker seen besides the corners ({need} or more let it correct the lens)",
        ),
        "calLensSeenEnough": Text(
            "除四角外看到 {n} 枚贴纸:够校正镜头了",
            "{n} stickers seen besides the corners: enough to correct the lens",
        ),
        "calLensNoPicture": Text(
            "还没有摄像头画面,数不了贴纸", "No camera picture yet, so no stickers counted"
        ),
        "calLensCorrected": Text(
            "镜头:已校正(不校正的话,桌边最多偏 {mm} 毫米)",
            "Lens: corrected (without it, the table's edge would be read up to {mm} mm off)",
        ),
        "calLensCorrectedSmall": Text(
            "镜头:已校正(这个镜头几乎不弯,不校正也偏不到 1 毫米)",
            "Lens: corrected (this lens hardly bends: without it, less than 1 mm off)",
        ),
        "calLensFew": Text("镜头:未测量(贴纸太少)", "Lens: not measured (too few stickers)"),
        "calLensFewWhy": Text(
            "校准时除四角外看到 {n} 枚贴纸,至少要 {need} 枚。桌面照旧按平面读取;"
            "想校正镜头,在桌上放够贴纸再校准一次",
            "Stickers seen besides the corners when you calibrated: {n}; it needs {need}. The"
            " table is read flat, as before: to correct the lens, lay more stickers and"
            " calibrate again",
        ),
        "calLensStraight": Text(
            "镜头:未校正(贴纸看不出镜头弯曲)", "Lens: not corrected (the stickers show no bend)"
        ),
        "calLensStraightWhy": Text(
            "{n} 枚贴纸都量过了,校正镜头不比按平面读取更准,桌面照旧按平面读取",
            "All {n} stickers were measured: correcting the lens read them no better, so the"
            " table is read flat, as before",
        ),
        "calLensDetail": Text(
            "镜头系数 k1 {k1}、k2 {k2},由四角外 {n} 枚贴纸测得",
            "Lens coefficients k1 {k1}, k2 {k2}, from {n} stickers besides the corners",
        ),
        # H21, the calibrate page on opening: the saved calibration, when it was made, its lens
        "calSaved": Text("已保存的校准:{when}", "Saved calibration: {when}"),
        "calSavedNone": Text(
            "还没有保存的校准:摄像头每次从看到的四角定位标签推算桌面",
            "No calibration saved yet: the camera works the table out from the corner anchors"
            " it sees",
        ),
        "calSavedDamaged": Text(
            "保存的校准文件已损坏,读不出来:请重新校准",
            "The saved calibration's file is damaged and cannot be read: calibrate again",
        ),
        "calLensFlat": Text(
            "镜头:未校正(桌面按平面读取)", "Lens: not corrected (the table is read flat)"
        ),
    }
)
"""Each word of the pages by key: Chinese and English."""


def page_words() -> dict[str, dict[str, str]]:
    """The catalogue as the pages read it: ``{"zh": {key: text, …}, "en": {…}}``."""
    return {lang: {key: text.in_(lang) for key, text in WORDS.items()} for lang in LANGUAGES}
