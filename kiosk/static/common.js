// Shared by every page: language, the live connection, control requests with the pairing code.
"use strict";

const WORDS = {
  zh: {
    round: "第 {n} 轮", roundOf: "第 {n} / {of} 轮", step: "第 {i}/{of} 步:{t}",
    player: "轮到 {n} 号玩家", playerNamed: "轮到{name}({n} 号玩家)", table: "全体玩家", free: "任一玩家可行动", everyone: "所有玩家同时行动",
    passed: "已结束:{list}", dice: "骰池", noDice: "现在不用掷骰",
    verdicts: "判定", prompts: "请注意", log: "记录", camera: "摄像头", controller: "灯光控制器",
    ok: "正常", simulated: "模拟", lost: "断开", not_connected: "未连接",
    live: "已连接", reconnecting: "重新连接中…", advance: "确认 / 下一步", undo: "撤销",
    menu: "菜单", setup: "新游戏", settings: "设置", tray: "骰盘", cameraPage: "摄像头画面",
    calibrate: "校准", sheets: "贴纸", pairing: "配对码", pairHint: "在手机上输入此码即可操作",
    pairAsk: "输入桌旁屏幕上的配对码", over: "游戏结束", moves: "已记录 {n} 步",
    accepted: "已接受", rejected: "不允许", close: "关闭", back: "返回", save: "保存",
    start: "开始", players: "玩家人数", game: "游戏", name: "存档名(可不填)",
    language: "语言", brightness: "亮度", sound: "声音", addMs: "出现多久才算放下(毫秒)",
    removeMs: "消失多久才算拿走(毫秒)", saved: "已保存", error: "出错", phases: "阶段",
    notConnected: "控制器:未连接", calibrateNow: "现在校准", anchors: "定位标记",
    reprojection: "重投影误差", tags: "画面中的标记", reading: "规则读取结果", download: "下载",
    console: "现在可以做的", toAct: "轮到此玩家", mayAct: "可以行动", cameraFallback: "摄像头读不到时,手动输入",
    doIt: "确定", cancel: "取消", chooseEach: "请先选好每一项", diceAsk: "骰子掷出了什么?",
    placements: "可放的位置:{n} 种", tapCells: "在格子上点出放的位置", nothingNow: "现在没有可做的行动",
    gameIsOver: "游戏已结束。可在菜单中开始新游戏。", sent: "已提交", die: "第 {n} 颗",
    noPlacement: "这些格子不是一种放法", countSome: "请用 + 数出要交换的东西",
    saveName: "存档", points: "{n} 分", chart: "每轮分数",
    printPdf: "打印版", printSvg: "矢量图",
    // setup page
    stepGame: "游戏", stepPlayers: "玩家", stepOptions: "选项", stepCheck: "摆放检查",
    stepCampaign: "战役", askCampaign: "开始新战役,还是接着上次的战役?", newCampaign: "新战役",
    newCampaignSub: "从第一纪元开始,创造新角色", nextSession: "接着上次:下一局",
    noNextChallenge: "这个战役已没有可选的挑战卡", 
    askGame: "玩哪个游戏?", askSeats: "每位玩家的名字(可不填)和颜色", askOptions: "剧本和选项",
    askCheck: "按清单摆好桌面,摄像头会确认", playersRange: "{min}–{max} 人", seatN: "{n}号玩家",
    namePlaceholder: "{n}号玩家", nameTooLong: "{who}的名字太长:最多 {max} 个字(现在 {len} 个)",
    colourTakenBy: "已被{who}选用", next: "下一步", nextTo: "下一步:{step}", prev: "上一步",
    startGame: "开始游戏", yes: "是", no: "否", notSet: "不指定", pickedNth: "第 {n} 个",
    chooseGame: "请先选一个游戏", starting: "正在开始…", camOk: "摄像头已确认",
    camMissing: "摄像头还没看到(看到 {seen}/{need})", camCount: "摄像头看到 {seen} 个,请目测核对",
    byEye: "摄像头查不了,请目测核对", camWaiting: "摄像头还没有画面:全部请目测核对",
    camLive: "摄像头画面正常,清单会自动更新", camOff: "摄像头{state}:全部请目测核对",
    stillMissing: "还缺:{list}。也可以先开始,开始后再补。", allSeen: "摄像头能查的都已确认。",
    sumPlayers: "{n} 位玩家", startFailed: "没能开始:{why}",
    // tray page
    trayHeading: "骰盘:谁掷什么骰子,为什么", trayN: "骰盘 {n}", trayWhose: "{who}的骰子({n} 颗)",
    trayEmpty: "空着", traySeat: "{n}号玩家", trackHeading: "轮次灯带:每颗灯代表什么",
    die_d6: "六面骰", die_monster: "怪物骰", die_character: "角色骰", die_skill: "技能骰", die_weather: "天气骰",
    ledN: "灯 {n}", ledRange: "灯 {a}–{b}", roundNow: "第 {n} 轮:现在(闪动)",
    roundNowOf: "第 {n} / {of} 轮:现在(闪动)", roundsPast: "已过的轮(暗)", roundsComing: "还没到的轮(不亮)",
    roundMark: "风暴在第 {n} 轮来临(闪烁)", accentNow: "昼夜:现在是{name}", accent_day: "白天(橙)",
    accent_night: "黑夜(蓝紫)", accentNone: "本游戏不分昼夜(不亮)", ledsUnused: "不用(不亮)",
    phasePast: "已过(暗)", phaseNowSeat: "现在,{who}的颜色({colour})", phaseNowAll: "现在,全体(白色)",
    phasesNoRoom: "灯带放不下各阶段", group_round: "轮次", group_phase: "阶段", group_accent: "昼夜",
    group_unused: "不用", group_other: "其他",
  },
  en: {
    round: "Round {n}", roundOf: "Round {n} of {of}", step: "Step {i}/{of}: {t}",
    player: "Player {n} to act", playerNamed: "{name} (player {n}) to act", table: "The whole table", free: "Any player may act", everyone: "Everyone acts at once",
    passed: "Done: {list}", dice: "Dice pool", noDice: "No dice to roll now",
    verdicts: "Verdicts", prompts: "Please", log: "Log", camera: "Camera", controller: "LED controller",
    ok: "ok", simulated: "simulated", lost: "lost", not_connected: "not connected",
    live: "live", reconnecting: "reconnecting…", advance: "Confirm / next", undo: "Undo",
    menu: "Menu", setup: "New game", settings: "Settings", tray: "Dice trays",
    cameraPage: "Camera view", calibrate: "Calibrate", sheets: "Stickers",
    pairing: "Pairing code", pairHint: "enter it on a phone to control the table",
    pairAsk: "Enter the pairing code shown on the table's screen", over: "Game over",
    moves: "{n} moves saved", accepted: "accepted", rejected: "not allowed", close: "Close",
    back: "Back", save: "Save", start: "Start", players: "Players", game: "Game",
    name: "Save name (optional)", language: "Language", brightness: "Brightness",
    sound: "Sound", addMs: "Seen this long to count as placed (ms)",
    removeMs: "Gone this long to count as removed (ms)", saved: "Saved", error: "Error",
    phases: "Phases", notConnected: "controller: not connected", calibrateNow: "Calibrate now",
    anchors: "Anchors", reprojection: "Reprojection error", tags: "Tags in view",
    reading: "What the game's reader sees",
    download: "Download",
    console: "What you can do now", toAct: "to act", mayAct: "may act",
    cameraFallback: "if the camera cannot read it, enter it here", doIt: "Do it", cancel: "Cancel",
    chooseEach: "Choose each item first", diceAsk: "What did the dice show?",
    placements: "{n} ways to place it", tapCells: "Tap the cells where the piece lies",
    nothingNow: "Nothing to do right now", gameIsOver: "The game is over. Start a new one from the menu.",
    sent: "Sent", die: "die {n}", noPlacement: "These cells are not a way to place it",
    countSome: "Count what changes hands with +",
    saveName: "Saved as", points: "{n} points", chart: "Points after each round",
    printPdf: "to print", printSvg: "vector",
    // setup page
    stepGame: "Game", stepPlayers: "Players", stepOptions: "Options", stepCheck: "Table check",
    stepCampaign: "Campaign", askCampaign: "A new campaign, or the next session of yours?", newCampaign: "A new campaign",
    newCampaignSub: "From the first epoch, with new characters", nextSession: "Go on: the next session",
    noNextChallenge: "No challenge card can follow in this campaign", 
    askGame: "Which game?", askSeats: "Each player's name (optional) and colour", askOptions: "Scenario and options",
    askCheck: "Lay out the table as listed; the camera confirms it", playersRange: "{min}–{max} players", seatN: "Player {n}",
    namePlaceholder: "Player {n}", nameTooLong: "{who}: the name is too long, at most {max} characters (now {len})",
    colourTakenBy: "taken by {who}", next: "Next", nextTo: "Next: {step}", prev: "Back",
    startGame: "Start the game", yes: "Yes", no: "No", notSet: "Not set", pickedNth: "no. {n}",
    chooseGame: "Choose a game first", starting: "Starting…", camOk: "seen by the camera",
    camMissing: "not seen by the camera yet ({seen} of {need} seen)", camCount: "the camera sees {seen}; check by eye",
    byEye: "the camera cannot check this: check by eye", camWaiting: "No camera picture yet: check everything by eye",
    camLive: "The camera is watching; the list updates by itself", camOff: "Camera {state}: check everything by eye",
    stillMissing: "Still missing: {list}. You may start anyway and lay them out after.", allSeen: "All the camera can check is seen.",
    sumPlayers: "{n} players", startFailed: "Could not start: {why}",
    // tray page
    trayHeading: "Dice trays: who rolls what, and why", trayN: "Tray {n}", trayWhose: "{who}'s dice ({n})",
    trayEmpty: "empty", traySeat: "Player {n}", trackHeading: "Round track: what each LED stands for",
    die_d6: "d6", die_monster: "monster die", die_character: "character die", die_skill: "skill die", die_weather: "weather die",
    ledN: "LED {n}", ledRange: "LEDs {a}–{b}", roundNow: "Round {n}: now (pulsing)",
    roundNowOf: "Round {n} of {of}: now (pulsing)", roundsPast: "rounds played (dim)", roundsComing: "rounds to come (off)",
    roundMark: "the storm comes in round {n} (blinking)", accentNow: "day or night: now {name}", accent_day: "day (amber)",
    accent_night: "night (violet)", accentNone: "this game has no day and night (off)", ledsUnused: "not used (off)",
    phasePast: "done (dim)", phaseNowSeat: "now, in {who}'s colour ({colour})", phaseNowAll: "now, the whole table (white)",
    phasesNoRoom: "the phases do not fit on the strip", group_round: "Rounds", group_phase: "Phases", group_accent: "Day",
    group_unused: "Unused", group_other: "Other",
  },
};

const Kiosk = {
  lang: new URLSearchParams(location.search).get("lang") || localStorage.getItem("lang") || "",
  status: null,

  t(key, params = {}) {
    const words = WORDS[Kiosk.lang] || WORDS.en;
    let text = words[key] ?? key;
    for (const [k, v] of Object.entries(params)) text = text.replace(`{${k}}`, v);
    return text;
  },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const child of children) if (child != null) node.append(child);
    return node;
  },

  translateStatic() {
    document.documentElement.lang = Kiosk.lang === "zh" ? "zh-CN" : "en";
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = Kiosk.t(node.dataset.t);
    for (const b of document.querySelectorAll("[data-lang]")) {
      b.setAttribute("aria-pressed", String(b.dataset.lang === Kiosk.lang));
    }
  },

  // Live status: a snapshot on every (re)connect, then changes merged into it.
  connect(onStatus, onConnection) {
    let source = null;
    let retry = null;
    const open = () => {
      if (source) source.close();
      const query = Kiosk.lang ? `?lang=${encodeURIComponent(Kiosk.lang)}` : "";
      source = new EventSource(`/api/live${query}`);
      source.addEventListener("snapshot", (e) => {
        Kiosk.status = JSON.parse(e.data);
        if (!Kiosk.lang) Kiosk.lang = Kiosk.status.lang;
        onConnection(true);
        onStatus(Kiosk.status, true);
      });
      source.addEventListener("change", (e) => {
        const change = JSON.parse(e.data);
        if (!Kiosk.status || change.seq <= Kiosk.status.seq) return;
        Object.assign(Kiosk.status, change);
        onStatus(Kiosk.status, false);
      });
      source.onerror = () => {
        onConnection(false);
        if (source.readyState === EventSource.CLOSED && retry === null) {
          retry = setTimeout(() => { retry = null; open(); }, 1000);
        }
      };
    };
    open();
    return {
      reopen: open,
    };
  },

  setLang(lang, live) {
    Kiosk.lang = lang;
    localStorage.setItem("lang", lang);
    Kiosk.translateStatic();
    if (live) live.reopen();
  },

  // A control request: the kiosk's own screen needs no code; a phone sends the pairing code.
  async post(path, body = {}) {
    const headers = { "Content-Type": "application/json" };
    const code = localStorage.getItem("pairing");
    if (code) headers["X-Pairing-Code"] = code;
    let response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    if (response.status === 403) {
      const entered = prompt(Kiosk.t("pairAsk"));
      if (!entered) return { ok: false, detail: Kiosk.t("pairAsk") };
      localStorage.setItem("pairing", entered.trim());
      headers["X-Pairing-Code"] = entered.trim();
      response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    }
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, ...data };
  },

  describe(detail) {
    if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
    return String(detail ?? "");
  },
};
