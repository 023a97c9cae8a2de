export { runStorageContract, type StorageContractOptions } from "./storage-contract.js";
export { fixtures } from "./fixtures.js";
export { runOAuthStorageContract } from "./contract-oauth.js";
