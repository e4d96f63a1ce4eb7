import { channelRegistry } from "@/lib/channels/registry";
import { graphSettings } from "./config";

/** The channel adapters as delivery uses them, wired with the delivery settings. */
export const { adapterFor } = channelRegistry({ graph: graphSettings });
export { walkingProviders } from "@/lib/channels/registry";
