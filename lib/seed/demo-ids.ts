/**
 * The provider ids the demo seed writes (wamid.DEMO0001…): example rows that were never sent. The
 * sandbox's restart takeover leaves them alone, so the demo keeps its example of every status.
 */
export const DEMO_WAMID_PREFIX = "wamid.DEMO";
