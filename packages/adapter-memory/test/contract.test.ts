import { runStorageContract } from "@vitrina/core/testing";
import { memoryStorage } from "@vitrina/adapter-memory";

runStorageContract("memory", { create: async () => memoryStorage() });
