export {
  runStorageContract,
  CONTRACT_SECTION_NAMES,
  type StorageContractOptions,
  type ContractSectionName,
} from "./storage-contract.js";
export type { ContractSection, ContractContext } from "./contract-section.js";
export type { DirectReader } from "./direct-reader.js";
export { fixtures } from "./fixtures.js";
export { createManualClock, type ManualClock } from "../ports/clock.js";
export { whatsAppProvider, type WhatsAppProvider } from "./whatsapp-provider.js";
export { WELCOME_TEMPLATE, type ApprovedTemplate, type GraphApiSend } from "./fake-graph-api.js";
