export { channelIdInput as deleteChannelInput, channelSchema as deleteChannelOutput } from "./alert.types";
