import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CLOSE, channelMessage, parseChannelMessage, RESIZE, STDIN, STDOUT } from "./channels.js";

describe("the WebSocket channel protocol", () => {
  it("frames and reads one channel byte then the data", () => {
    const m = channelMessage(STDOUT, Buffer.from("hi"));
    assert.deepEqual([...m], [1, 104, 105]);
    assert.deepEqual(parseChannelMessage(m, true), { channel: STDOUT, data: Buffer.from("hi") });
    const resize = channelMessage(RESIZE, Buffer.from('{"Width":80,"Height":24}'));
    assert.equal(parseChannelMessage(resize, false)?.channel, RESIZE);
  });

  it("reads v5's close of a channel, and 255 as plain data in v4", () => {
    assert.deepEqual(parseChannelMessage(Buffer.from([CLOSE, STDIN]), true), {
      channel: CLOSE,
      closes: STDIN,
    });
    assert.deepEqual(parseChannelMessage(Buffer.from([CLOSE, STDIN]), false), {
      channel: CLOSE,
      data: Buffer.from([STDIN]),
    });
  });

  it("ignores an empty message and a close naming no channel", () => {
    assert.equal(parseChannelMessage(Buffer.alloc(0), true), undefined);
    assert.equal(parseChannelMessage(Buffer.from([CLOSE]), true), undefined);
  });
});
