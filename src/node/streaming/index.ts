/** The node API's streaming: exec, attach and port-forward relayed to the runtime's streaming server. */
export { CHANNEL_PROTOCOLS, channelMessage, parseChannelMessage } from "./channels.js";
export type { StreamOptions } from "./exec-relay.js";
export { TUNNELING_PROTOCOL } from "./port-forward-relay.js";
export { refuseUpgrade } from "./refuse-upgrade.js";
export {
  type StreamingRuntime,
  type StreamLookup,
  StreamServer,
  type StreamTarget,
} from "./stream-server.js";
