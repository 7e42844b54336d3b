// A complete minimal bot for the arena protocol (protocols/SPEC.md), in Node.js.
//
// It connects a ZeroMQ DEALER socket to the referee, says hello, and then plays every match it is
// sent: for each `act` it answers one of the legal action ids (uniformly at random, from a generator
// seeded by the match's `start`), answers `ping` with `pong`, and exits on `bye`.
//
// Install and run (the referee starts it with ARENA_ENDPOINT and ARENA_TOKEN set):
//   npm install
//   arena play wongar "node bot.js" random random
// As a remote entrant (docs/remote.md), with the connection file the organiser sent:
//   env $(cat alice.env) node bot.js      or      node bot.js --connect alice.env
// Over tcp:// it gives up (exit status 1) after GIVE_UP_MS without a message from the referee,
// which pings an idle remote bot every few seconds.
"use strict";

const fs = require("fs");
const zmq = require("zeromq");
const { encode, decode } = require("@msgpack/msgpack");

const PROTOCOL = 1;
const NAME = "node-random";
const VERSION = "1.0";
const GIVE_UP_MS = 30000;

// The settings: from a connection file (`--connect FILE`, NAME=VALUE lines), else the environment.
function settings() {
  const at = process.argv.indexOf("--connect");
  const found = { ...process.env };
  if (at >= 0) {
    for (const line of fs.readFileSync(process.argv[at + 1], "utf8").split("\n")) {
      const eq = line.indexOf("=");
      if (eq > 0 && !line.trimStart().startsWith("#")) found[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    }
  }
  return found;
}

// A small seeded generator (mulberry32): the same seed gives the same choices.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  let env;
  try {
    env = settings();
  } catch (error) {
    console.error(`${NAME}: cannot read the connection file: ${error.message}`);
    return 2;
  }
  const endpoint = env.ARENA_ENDPOINT;
  const token = env.ARENA_TOKEN;
  if (!endpoint || !token) {
    console.error(`${NAME}: set ARENA_ENDPOINT and ARENA_TOKEN (the referee does), or pass --connect FILE`);
    return 2;
  }
  const remote = endpoint.startsWith("tcp://");
  const socket = new zmq.Dealer({ linger: 0, receiveTimeout: remote ? GIVE_UP_MS : -1 });
  if (env.ARENA_SERVER_KEY) {
    const keys = zmq.curveKeyPair();
    socket.curveServerKey = env.ARENA_SERVER_KEY;
    socket.curvePublicKey = keys.publicKey;
    socket.curveSecretKey = keys.secretKey;
  }
  socket.connect(endpoint);
  const send = (message) => socket.send(encode(message));

  await send({ type: "hello", protocol: PROTOCOL, name: NAME, version: VERSION, token });
  let random = generator(0);
  let table = [];
  for (;;) {
    let frame;
    try {
      [frame] = await socket.receive();
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
      console.error(`${NAME}: nothing from the referee for ${GIVE_UP_MS / 1000} s; giving up`);
      socket.close();
      return 1;
    }
    const message = decode(frame);
    switch (message.type) {
      case "welcome":
        break;
      case "error":
        console.error(`${NAME}: the referee says: ${message.message}`);
        socket.close();
        return 1;
      case "start":
        // The seed may exceed 2^53; its low 32 bits are plenty for a generator.
        random = generator(Number(BigInt.asUintN(32, BigInt(message.seed))));
        table = message.actions; // [[id, form, label], ...]: what each id means in this game
        break;
      case "act": {
        const legal = message.legal;
        const action = legal[Math.floor(random() * legal.length)];
        const [, form] = table[action];
        await send({ type: "action", seq: message.seq, action, seat: message.seat, info: { form } });
        break;
      }
      case "ping":
        await send({ type: "pong", seq: message.seq });
        break;
      case "end":
        break;
      case "bye":
        socket.close();
        return 0;
      default:
        console.error(`${NAME}: ignored a message of type ${message.type}`);
    }
  }
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
