"""Hand-checked accuracy of the AWS rules beyond the kOps set: each row is a field's class as
the published AWS API reference gives it (the create call takes it and no call changes it:
create_only; an update, tag or add/remove call changes it: mutable; only reads return it:
read_only), checked against the reference pages named above each group.

The rules alone run here (no overlay). A row the rules get wrong is an expected failure,
``OVERLAY: why``, naming what an overlay (or a new rule) must correct. ``test_agreement`` prints
the agreement figure: rows the rules get right / rows.

Services pinned in schemas/ are read from there; the others from botocore's installed models
(the same botocore the pins came from).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codegen.model import Mutability, Service
from codegen.providers.aws import source as aws
from codegen.providers.aws.rules.run import annotate_model

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
C, M, R = Mutability.CREATE_ONLY, Mutability.MUTABLE, Mutability.READ_ONLY
API = "https://docs.aws.amazon.com/{}/latest/APIReference/API_{}.html"

_services: dict[str, Service] = {}


def annotated(name: str) -> Service:
    if name not in _services:
        pinned = aws.pinned_services(SCHEMAS)
        src = aws.load_pinned(SCHEMAS, name) if name in pinned else aws.load_installed(name)
        _, draft = annotate_model(src.model, service=name, api_version=src.api_version,
                                  paginators=src.paginators, waiters=src.waiters)
        _services[name] = draft.freeze()
    return _services[name]


# (service, resource, field, class per the API reference, "OVERLAY: why" when the rules differ)
ROWS: list[tuple[str, str, str, Mutability, str | None]] = [
    # --- ec2: CreateVpc, ModifyVpcAttribute, ModifyVpcTenancy, AssociateDhcpOptions, CreateTags
    # (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateVpc.html and the others by name)
    ("ec2", "Vpc", "Ipv6Pool", C, None),
    ("ec2", "Vpc", "Ipv4IpamPoolId", C, None),
    ("ec2", "Vpc", "Ipv4NetmaskLength", C, None),
    ("ec2", "Vpc", "AmazonProvidedIpv6CidrBlock", C, None),
    ("ec2", "Vpc", "DhcpOptionsId", M, None),
    ("ec2", "Vpc", "EnableNetworkAddressUsageMetrics", M, None),
    ("ec2", "Vpc", "OwnerId", R, None),
    ("ec2", "Vpc", "IsDefault", R, None),
    ("ec2", "Vpc", "State", R, None),
    ("ec2", "Vpc", "CidrBlockAssociationSet", R, None),
    # CreateSubnet, ModifySubnetAttribute (flattened PrivateDnsNameOptionsOnLaunch)
    ("ec2", "Subnet", "Ipv6Native", C, None),
    ("ec2", "Subnet", "OutpostArn", C, None),
    ("ec2", "Subnet", "AvailabilityZoneId", C, None),
    ("ec2", "Subnet", "AssignIpv6AddressOnCreation", M, None),
    ("ec2", "Subnet", "EnableDns64", M, None),
    ("ec2", "Subnet", "MapCustomerOwnedIpOnLaunch", M, None),
    ("ec2", "Subnet", "PrivateDnsNameOptionsOnLaunch", M, None),
    ("ec2", "Subnet", "State", R, None),
    ("ec2", "Subnet", "AvailableIpAddressCount", R, None),
    ("ec2", "Subnet", "DefaultForAz", R, None),
    ("ec2", "Subnet", "SubnetArn", R, None),
    # AuthorizeSecurityGroupIngress (IpPermissions form), ModifySecurityGroupRules
    ("ec2", "SecurityGroupIngress", "CidrIpv6", M, None),
    ("ec2", "SecurityGroupIngress", "CidrIpv4", M, None),
    ("ec2", "SecurityGroupIngress", "Description", M, None),
    ("ec2", "SecurityGroupIngress", "PrefixListId", M, None),
    ("ec2", "SecurityGroupIngress", "ToPort", M, None),
    ("ec2", "SecurityGroupIngress", "GroupId", C, None),
    ("ec2", "SecurityGroupIngress", "SecurityGroupRuleId", R, None),
    ("ec2", "SecurityGroupIngress", "IsEgress", R, None),
    ("ec2", "SecurityGroupIngress", "GroupOwnerId", R, None),
    ("ec2", "SecurityGroupEgress", "Description", M, None),
    ("ec2", "SecurityGroupEgress", "CidrIpv6", M, None),
    # CreateNatGateway, AssignPrivateNatGatewayAddress / Unassign…, AssociateNatGatewayAddress / Disassociate…
    ("ec2", "NatGateway", "SecondaryPrivateIpAddresses", M, None),
    ("ec2", "NatGateway", "SecondaryAllocationIds", M, None),
    ("ec2", "NatGateway", "PrivateIpAddress", C, None),
    ("ec2", "NatGateway", "VpcId", C, None),
    ("ec2", "NatGateway", "State", R, None),
    ("ec2", "NatGateway", "CreateTime", R, None),
    ("ec2", "NatGateway", "NatGatewayAddresses", R, None),
    ("ec2", "NatGateway", "Tags", M, None),
    # CreateFlowLogs (no modify call), CreatePlacementGroup, CreateEgressOnlyInternetGateway, CreateRouteTable
    ("ec2", "FlowLog", "TrafficType", C, None),
    ("ec2", "FlowLog", "LogDestinationType", C, None),
    ("ec2", "FlowLog", "LogDestination", C, None),
    ("ec2", "FlowLog", "LogFormat", C, None),
    ("ec2", "FlowLog", "MaxAggregationInterval", C, None),
    ("ec2", "FlowLog", "DeliverLogsPermissionArn", C, None),
    ("ec2", "FlowLog", "FlowLogStatus", R, None),
    ("ec2", "FlowLog", "CreationTime", R, None),
    ("ec2", "FlowLog", "Tags", M, None),
    ("ec2", "PlacementGroup", "Strategy", C, None),
    ("ec2", "PlacementGroup", "PartitionCount", C, None),
    ("ec2", "PlacementGroup", "SpreadLevel", C, None),
    ("ec2", "PlacementGroup", "GroupName", C, None),
    ("ec2", "PlacementGroup", "State", R, None),
    ("ec2", "PlacementGroup", "GroupArn", R, None),
    ("ec2", "EgressOnlyInternetGateway", "VpcId", C, None),
    ("ec2", "EgressOnlyInternetGateway", "Attachments", R, None),
    ("ec2", "EgressOnlyInternetGateway", "Tags", M, None),
    ("ec2", "RouteTable", "Tags", M, None),
    ("ec2", "RouteTable", "OwnerId", R, None),
    ("ec2", "InternetGateway", "Tags", M, None),
    ("ec2", "InternetGateway", "OwnerId", R, None),
    # CreateVpcEndpoint, ModifyVpcEndpoint
    ("ec2", "VpcEndpoint", "VpcEndpointType", C, None),
    ("ec2", "VpcEndpoint", "ServiceName", C, None),
    ("ec2", "VpcEndpoint", "VpcId", C, None),
    ("ec2", "VpcEndpoint", "PolicyDocument", M, "OVERLAY: ModifyVpcEndpoint selects by VpcEndpointId, DeleteVpcEndpoints by a list; the rules do not pair them"),
    ("ec2", "VpcEndpoint", "PrivateDnsEnabled", M, "OVERLAY: ModifyVpcEndpoint selects by VpcEndpointId, DeleteVpcEndpoints by a list; the rules do not pair them"),
    ("ec2", "VpcEndpoint", "SubnetIds", M, "OVERLAY: ModifyVpcEndpoint's AddSubnetIds / RemoveSubnetIds, an add/remove pair inside one call"),
    ("ec2", "VpcEndpoint", "SecurityGroupIds", M, "OVERLAY: ModifyVpcEndpoint's AddSecurityGroupIds / RemoveSecurityGroupIds"),
    ("ec2", "VpcEndpoint", "RouteTableIds", M, "OVERLAY: ModifyVpcEndpoint's AddRouteTableIds / RemoveRouteTableIds"),
    ("ec2", "VpcEndpoint", "State", R, None),
    ("ec2", "VpcEndpoint", "DnsEntries", R, None),
    ("ec2", "VpcEndpoint", "CreationTimestamp", R, None),
    # --- iam: CreateUser / UpdateUser (NewPath, NewUserName), CreateGroup / UpdateGroup, TagUser
    # (https://docs.aws.amazon.com/IAM/latest/APIReference/API_UpdateUser.html and the others by name)
    ("iam", "User", "Path", M, None),
    ("iam", "User", "UserName", M, None),
    ("iam", "User", "PermissionsBoundary", M, None),
    ("iam", "User", "UserId", R, None),
    ("iam", "User", "Arn", R, None),
    ("iam", "User", "CreateDate", R, None),
    ("iam", "User", "PasswordLastUsed", R, None),
    ("iam", "User", "Tags", M, None),
    ("iam", "Group", "Path", M, None),
    ("iam", "Group", "GroupName", M, None),
    ("iam", "Group", "GroupId", R, None),
    ("iam", "Group", "Arn", R, None),
    # CreatePolicy, CreatePolicyVersion, TagPolicy (Description cannot be changed)
    ("iam", "Policy", "PolicyName", C, None),
    ("iam", "Policy", "Path", C, None),
    ("iam", "Policy", "Description", C, None),
    ("iam", "Policy", "PolicyDocument", M, None),
    ("iam", "Policy", "DefaultVersionId", R, None),
    ("iam", "Policy", "AttachmentCount", R, None),
    ("iam", "Policy", "Tags", M, None),
    # CreateServiceLinkedRole, UpdateRoleDescription, TagRole
    ("iam", "ServiceLinkedRole", "AWSServiceName", C, None),
    ("iam", "ServiceLinkedRole", "CustomSuffix", C, None),
    ("iam", "ServiceLinkedRole", "Description", M, None),
    ("iam", "ServiceLinkedRole", "Tags", M, None),
    ("iam", "ServiceLinkedRole", "RoleId", R, None),
    # CreateAccessKey / UpdateAccessKey, CreateOpenIDConnectProvider / UpdateOpenIDConnectProviderThumbprint /
    # AddClientIDToOpenIDConnectProvider, CreateVirtualMFADevice / TagMFADevice, CreateInstanceProfile
    ("iam", "AccessKey", "Status", M, None),
    ("iam", "AccessKey", "UserName", C, None),
    ("iam", "AccessKey", "AccessKeyId", R, None),
    ("iam", "OpenIDConnectProvider", "Url", C, None),
    ("iam", "OpenIDConnectProvider", "ThumbprintList", M, None),
    ("iam", "OpenIDConnectProvider", "ClientIDList", M, "OVERLAY: AddClientIDToOpenIDConnectProvider / RemoveClientIDFromOpenIDConnectProvider take ClientID, which names no list field by the rules' spellings"),
    ("iam", "OpenIDConnectProvider", "Tags", M, None),
    ("iam", "VirtualMFADevice", "VirtualMFADeviceName", C, None),
    ("iam", "VirtualMFADevice", "Path", C, None),
    ("iam", "VirtualMFADevice", "Tags", M, None),
    ("iam", "VirtualMFADevice", "SerialNumber", R, None),
    ("iam", "InstanceProfile", "Path", C, None),
    ("iam", "InstanceProfile", "Tags", M, None),
    ("iam", "UserPolicy", "PolicyDocument", M, None),
    ("iam", "UserPolicy", "PolicyName", C, None),
    # --- elbv2: CreateTargetGroup / ModifyTargetGroup / ModifyTargetGroupAttributes, CreateRule / ModifyRule /
    # SetRulePriorities, CreateTrustStore / ModifyTrustStore, AddTags
    # (https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_ModifyTargetGroup.html and others)
    ("elbv2", "TargetGroup", "Name", C, None),
    ("elbv2", "TargetGroup", "Protocol", C, None),
    ("elbv2", "TargetGroup", "ProtocolVersion", C, None),
    ("elbv2", "TargetGroup", "TargetType", C, None),
    ("elbv2", "TargetGroup", "IpAddressType", C, None),
    ("elbv2", "TargetGroup", "HealthCheckProtocol", M, None),
    ("elbv2", "TargetGroup", "HealthCheckPort", M, None),
    ("elbv2", "TargetGroup", "HealthCheckEnabled", M, None),
    ("elbv2", "TargetGroup", "HealthCheckIntervalSeconds", M, None),
    ("elbv2", "TargetGroup", "HealthCheckTimeoutSeconds", M, None),
    ("elbv2", "TargetGroup", "HealthyThresholdCount", M, None),
    ("elbv2", "TargetGroup", "UnhealthyThresholdCount", M, None),
    ("elbv2", "TargetGroup", "Matcher", M, None),
    ("elbv2", "TargetGroup", "Tags", M, None),
    ("elbv2", "TargetGroup", "TargetGroupArn", R, None),
    ("elbv2", "TargetGroup", "LoadBalancerArns", R, None),
    ("elbv2", "Rule", "ListenerArn", C, None),
    ("elbv2", "Rule", "Conditions", M, None),
    ("elbv2", "Rule", "Actions", M, None),
    ("elbv2", "Rule", "Priority", M, "OVERLAY: SetRulePriorities takes [{RuleArn, Priority}] items; the rule's ARN is its primary but the list item is a RulePriorityPair, not a {id, structure} keyed item"),
    ("elbv2", "Rule", "IsDefault", R, None),
    ("elbv2", "Rule", "Tags", M, None),
    ("elbv2", "TrustStore", "Name", C, None),
    ("elbv2", "TrustStore", "CaCertificatesBundleS3Bucket", M, None),
    ("elbv2", "TrustStore", "CaCertificatesBundleS3Key", M, None),
    ("elbv2", "TrustStore", "Status", R, None),
    ("elbv2", "TrustStore", "NumberOfCaCertificates", R, None),
    ("elbv2", "TrustStore", "Tags", M, None),
    # --- autoscaling: CreateAutoScalingGroup / UpdateAutoScalingGroup, Attach/Detach…, Enable/DisableMetricsCollection,
    # PutLifecycleHook / DeleteLifecycleHook, CreateLaunchConfiguration (no update), PutWarmPool
    # (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_UpdateAutoScalingGroup.html and others)
    ("autoscaling", "AutoScalingGroup", "LoadBalancerNames", M, None),
    ("autoscaling", "AutoScalingGroup", "TrafficSources", M, None),
    ("autoscaling", "AutoScalingGroup", "EnabledMetrics", M, None),
    ("autoscaling", "AutoScalingGroup", "LifecycleHookSpecificationList", M, None),
    ("autoscaling", "AutoScalingGroup", "HealthCheckType", M, None),
    ("autoscaling", "AutoScalingGroup", "HealthCheckGracePeriod", M, None),
    ("autoscaling", "AutoScalingGroup", "DefaultCooldown", M, None),
    ("autoscaling", "AutoScalingGroup", "TerminationPolicies", M, None),
    ("autoscaling", "AutoScalingGroup", "NewInstancesProtectedFromScaleIn", M, None),
    ("autoscaling", "AutoScalingGroup", "CapacityRebalance", M, None),
    ("autoscaling", "AutoScalingGroup", "MaxInstanceLifetime", M, None),
    ("autoscaling", "AutoScalingGroup", "MixedInstancesPolicy", M, None),
    ("autoscaling", "AutoScalingGroup", "AutoScalingGroupARN", R, None),
    ("autoscaling", "AutoScalingGroup", "CreatedTime", R, None),
    ("autoscaling", "AutoScalingGroup", "Status", R, None),
    ("autoscaling", "AutoScalingGroup", "SuspendedProcesses", M, "OVERLAY: SuspendProcesses / ResumeProcesses take ScalingProcesses, not a spelling of SuspendedProcesses"),
    ("autoscaling", "LaunchConfiguration", "ImageId", C, None),
    ("autoscaling", "LaunchConfiguration", "InstanceType", C, None),
    ("autoscaling", "LaunchConfiguration", "UserData", C, None),
    ("autoscaling", "LaunchConfiguration", "SecurityGroups", C, None),
    ("autoscaling", "LaunchConfiguration", "IamInstanceProfile", C, None),
    ("autoscaling", "LaunchConfiguration", "MetadataOptions", C, None),
    ("autoscaling", "LaunchConfiguration", "CreatedTime", R, None),
    ("autoscaling", "LifecycleHook", "LifecycleHookName", C, None),
    ("autoscaling", "LifecycleHook", "LifecycleTransition", M, None),
    ("autoscaling", "LifecycleHook", "HeartbeatTimeout", M, None),
    ("autoscaling", "LifecycleHook", "DefaultResult", M, None),
    ("autoscaling", "LifecycleHook", "GlobalTimeout", R, None),
    ("autoscaling", "WarmPool", "MinSize", M, None),
    ("autoscaling", "WarmPool", "PoolState", M, None),
    # --- route53: CreateHostedZone, AssociateVPCWithHostedZone / DisassociateVPCFromHostedZone,
    # UpdateHostedZoneComment, ChangeTagsForResource, CreateHealthCheck / UpdateHealthCheck,
    # CreateTrafficPolicyInstance / UpdateTrafficPolicyInstance, CreateQueryLoggingConfig
    # (https://docs.aws.amazon.com/Route53/latest/APIReference/API_UpdateHealthCheck.html and others)
    ("route53", "HostedZone", "VPC", M, None),
    ("route53", "HostedZone", "HostedZoneConfig", M, None),
    ("route53", "HostedZone", "Tags", M, None),
    ("route53", "HostedZone", "DelegationSetId", C, None),
    ("route53", "HostedZone", "ResourceRecordSetCount", R, None),
    ("route53", "HealthCheck", "CallerReference", C, None),
    ("route53", "HealthCheck", "HealthCheckConfig", M, "OVERLAY: UpdateHealthCheck carries the config's members flat under their own names (IPAddress, Port, …); Type, RequestInterval and MeasureLatency stay create-only"),
    ("route53", "HealthCheck", "Tags", M, None),
    ("route53", "HealthCheck", "Id", R, None),
    ("route53", "HealthCheck", "CloudWatchAlarmConfiguration", R, None),
    ("route53", "TrafficPolicyInstance", "HostedZoneId", C, None),
    ("route53", "TrafficPolicyInstance", "Name", C, None),
    ("route53", "TrafficPolicyInstance", "TTL", M, None),
    ("route53", "TrafficPolicyInstance", "TrafficPolicyId", M, None),
    ("route53", "TrafficPolicyInstance", "TrafficPolicyVersion", M, None),
    ("route53", "TrafficPolicyInstance", "State", R, None),
    ("route53", "QueryLoggingConfig", "HostedZoneId", C, None),
    ("route53", "QueryLoggingConfig", "CloudWatchLogsLogGroupArn", C, None),
    # --- s3: CreateBucket, PutBucketTagging, PutBucketAcl, PutBucketPolicy, PutPublicAccessBlock
    # (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateBucket.html and others)
    ("s3", "Bucket", "Bucket", C, None),
    ("s3", "Bucket", "CreateBucketConfiguration", C, None),
    ("s3", "Bucket", "ObjectLockEnabledForBucket", C, None),
    ("s3", "Bucket", "ACL", M, None),
    ("s3", "Bucket", "GrantRead", M, None),
    ("s3", "Bucket", "ObjectOwnership", M, "OVERLAY: PutBucketOwnershipControls changes it, as a member of OwnershipControls.Rules[]"),
    ("s3", "Bucket", "Tags", M, None),
    ("s3", "Bucket", "CreationDate", R, None),
    ("s3", "BucketPolicy", "Policy", M, None),
    ("s3", "BucketPolicy", "Bucket", C, None),
    ("s3", "PublicAccessBlock", "PublicAccessBlockConfiguration", M, None),
    ("s3", "BucketEncryption", "ServerSideEncryptionConfiguration", M, None),
    # --- sqs: CreateQueue, SetQueueAttributes, TagQueue
    # (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_TagQueue.html and others)
    ("sqs", "Queue", "QueueName", C, None),
    ("sqs", "Queue", "Attributes", M, None),
    ("sqs", "Queue", "Tags", M, None),
    ("sqs", "Queue", "QueueUrl", R, None),
    # --- sns: CreateTopic, SetTopicAttributes (AttributeName / AttributeValue), TagResource,
    # CreatePlatformApplication / SetPlatformApplicationAttributes
    # (https://docs.aws.amazon.com/sns/latest/api/API_SetTopicAttributes.html and others)
    ("sns", "Topic", "Name", C, None),
    ("sns", "Topic", "Attributes", M, "OVERLAY: SetTopicAttributes sets one attribute per call as AttributeName / AttributeValue, a map entry"),
    ("sns", "Topic", "DataProtectionPolicy", M, "OVERLAY: PutDataProtectionPolicy takes ResourceArn, not the topic's own member names"),
    ("sns", "Topic", "Tags", M, None),
    ("sns", "Topic", "TopicArn", R, None),
    ("sns", "PlatformApplication", "Name", C, None),
    ("sns", "PlatformApplication", "Platform", C, None),
    ("sns", "PlatformApplication", "Attributes", M, None),
    # --- kms: CreateAlias / UpdateAlias, CreateCustomKeyStore / UpdateCustomKeyStore
    # (https://docs.aws.amazon.com/kms/latest/APIReference/API_UpdateCustomKeyStore.html and others)
    ("kms", "Alias", "AliasName", C, None),
    ("kms", "Alias", "TargetKeyId", M, None),
    ("kms", "Alias", "AliasArn", R, None),
    ("kms", "Alias", "CreationDate", R, None),
    ("kms", "CustomKeyStore", "CustomKeyStoreName", M, None),
    ("kms", "CustomKeyStore", "CloudHsmClusterId", M, None),
    ("kms", "CustomKeyStore", "KeyStorePassword", M, None),
    ("kms", "CustomKeyStore", "XksProxyUriEndpoint", M, None),
    ("kms", "CustomKeyStore", "XksProxyConnectivity", M, None),
    ("kms", "CustomKeyStore", "TrustAnchorCertificate", C, None),
    ("kms", "CustomKeyStore", "CustomKeyStoreType", C, None),
    ("kms", "CustomKeyStore", "ConnectionState", R, None),
    ("kms", "CustomKeyStore", "CustomKeyStoreId", R, None),
    # --- logs: CreateLogGroup, PutRetentionPolicy, AssociateKmsKey, PutLogGroupDeletionProtection, TagResource,
    # PutMetricFilter, PutSubscriptionFilter, PutDestination / PutDestinationPolicy, CreateLogStream
    # (https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutLogGroupDeletionProtection.html and others)
    ("logs", "LogGroup", "logGroupName", C, None),
    ("logs", "LogGroup", "logGroupClass", C, None),
    ("logs", "LogGroup", "Tags", M, None),
    ("logs", "LogGroup", "kmsKeyId", M, "OVERLAY: AssociateKmsKey / DisassociateKmsKey name the group by an optional logGroupName or a resourceIdentifier"),
    ("logs", "LogGroup", "retentionInDays", M, "OVERLAY: PutRetentionPolicy / DeleteRetentionPolicy are found as a RetentionPolicy resource of their own"),
    ("logs", "LogGroup", "deletionProtectionEnabled", M, "OVERLAY: PutLogGroupDeletionProtection names the group logGroupIdentifier, not logGroupName"),
    ("logs", "LogGroup", "storedBytes", R, None),
    ("logs", "LogGroup", "creationTime", R, None),
    ("logs", "LogGroup", "arn", R, None),
    ("logs", "LogStream", "logStreamName", C, None),
    ("logs", "LogStream", "logGroupName", C, None),
    ("logs", "LogStream", "lastIngestionTime", R, None),
    ("logs", "MetricFilter", "filterName", C, None),
    ("logs", "MetricFilter", "filterPattern", M, None),
    ("logs", "MetricFilter", "metricTransformations", M, None),
    ("logs", "MetricFilter", "creationTime", R, None),
    ("logs", "SubscriptionFilter", "filterName", C, None),
    ("logs", "SubscriptionFilter", "filterPattern", M, None),
    ("logs", "SubscriptionFilter", "destinationArn", M, "OVERLAY: PutSubscriptionFilter replaces the filter, destinationArn included; the rules take it for a selector"),
    ("logs", "SubscriptionFilter", "roleArn", M, None),
    ("logs", "SubscriptionFilter", "distribution", M, None),
    ("logs", "Destination", "destinationName", C, None),
    ("logs", "Destination", "targetArn", M, None),
    ("logs", "Destination", "roleArn", M, None),
    ("logs", "Destination", "accessPolicy", M, None),
    ("logs", "Destination", "arn", R, None),
    # --- dynamodb: CreateTable / UpdateTable (GlobalSecondaryIndexUpdates), TagResource, PutResourcePolicy, CreateBackup
    # (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html and others)
    ("dynamodb", "Table", "TableName", C, None),
    ("dynamodb", "Table", "KeySchema", C, None),
    ("dynamodb", "Table", "LocalSecondaryIndexes", C, None),
    ("dynamodb", "Table", "BillingMode", M, None),
    ("dynamodb", "Table", "ProvisionedThroughput", M, None),
    ("dynamodb", "Table", "StreamSpecification", M, None),
    ("dynamodb", "Table", "SSESpecification", M, None),
    ("dynamodb", "Table", "TableClass", M, None),
    ("dynamodb", "Table", "DeletionProtectionEnabled", M, None),
    ("dynamodb", "Table", "OnDemandThroughput", M, None),
    ("dynamodb", "Table", "Tags", M, None),
    ("dynamodb", "Table", "GlobalSecondaryIndexes", M, "OVERLAY: UpdateTable changes them through GlobalSecondaryIndexUpdates' Create / Update / Delete actions"),
    ("dynamodb", "Table", "ResourcePolicy", M, "OVERLAY: PutResourcePolicy takes ResourceArn (found as a ResourcePolicy resource of its own)"),
    ("dynamodb", "Table", "TableStatus", R, None),
    ("dynamodb", "Table", "TableArn", R, None),
    ("dynamodb", "Table", "ItemCount", R, None),
    ("dynamodb", "Table", "CreationDateTime", R, None),
    ("dynamodb", "Backup", "BackupName", C, None),
    ("dynamodb", "Backup", "TableName", C, None),
    ("dynamodb", "Backup", "BackupDetails", R, None),
    # --- ecr: CreateRepository, PutImageTagMutability, PutImageScanningConfiguration, TagResource,
    # PutLifecyclePolicy, CreatePullThroughCacheRule / UpdatePullThroughCacheRule
    # (https://docs.aws.amazon.com/AmazonECR/latest/APIReference/API_CreateRepository.html and others)
    ("ecr", "Repository", "repositoryName", C, None),
    ("ecr", "Repository", "encryptionConfiguration", C, None),
    ("ecr", "Repository", "imageTagMutability", M, None),
    ("ecr", "Repository", "imageScanningConfiguration", M, None),
    ("ecr", "Repository", "Tags", M, None),
    ("ecr", "Repository", "repositoryArn", R, None),
    ("ecr", "Repository", "repositoryUri", R, None),
    ("ecr", "Repository", "createdAt", R, None),
    ("ecr", "LifecyclePolicy", "lifecyclePolicyText", M, None),
    ("ecr", "LifecyclePolicy", "repositoryName", C, None),
    ("ecr", "PullThroughCacheRule", "ecrRepositoryPrefix", C, None),
    ("ecr", "PullThroughCacheRule", "upstreamRegistryUrl", C, None),
    ("ecr", "PullThroughCacheRule", "credentialArn", M, None),
    # --- secretsmanager: CreateSecret / UpdateSecret / ReplicateSecretToRegions, TagResource, PutResourcePolicy
    # (https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_UpdateSecret.html and others)
    ("secretsmanager", "Secret", "Name", C, None),
    ("secretsmanager", "Secret", "Description", M, None),
    ("secretsmanager", "Secret", "KmsKeyId", M, None),
    ("secretsmanager", "Secret", "SecretString", M, None),
    ("secretsmanager", "Secret", "SecretBinary", M, None),
    ("secretsmanager", "Secret", "Tags", M, None),
    ("secretsmanager", "Secret", "AddReplicaRegions", M, "OVERLAY: ReplicateSecretToRegions / RemoveRegionsFromReplication, an add/remove pair with differently named members"),
    ("secretsmanager", "ResourcePolicy", "ResourcePolicy", M, None),
    ("secretsmanager", "ResourcePolicy", "BlockPublicPolicy", M, None),
    ("secretsmanager", "ResourcePolicy", "SecretId", C, None),
    # --- ssm: PutParameter (Overwrite), AddTagsToResource, CreateMaintenanceWindow / UpdateMaintenanceWindow,
    # CreateDocument / UpdateDocument, CreateAssociation / UpdateAssociation
    # (https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_UpdateMaintenanceWindow.html and others)
    ("ssm", "Parameter", "Value", M, None),
    ("ssm", "Parameter", "Description", M, None),
    ("ssm", "Parameter", "AllowedPattern", M, None),
    ("ssm", "Parameter", "Tier", M, None),
    ("ssm", "Parameter", "Tags", M, None),
    ("ssm", "Parameter", "Version", R, None),
    ("ssm", "Parameter", "LastModifiedDate", R, None),
    ("ssm", "MaintenanceWindow", "Name", M, "OVERLAY: UpdateMaintenanceWindow takes Name as a new value; the rules take it for the natural key that selects"),
    ("ssm", "MaintenanceWindow", "Schedule", M, None),
    ("ssm", "MaintenanceWindow", "Duration", M, None),
    ("ssm", "MaintenanceWindow", "Cutoff", M, None),
    ("ssm", "MaintenanceWindow", "AllowUnassociatedTargets", M, None),
    ("ssm", "MaintenanceWindow", "Tags", M, None),
    ("ssm", "MaintenanceWindow", "WindowId", R, None),
    ("ssm", "MaintenanceWindow", "CreatedDate", R, None),
    ("ssm", "Document", "Name", C, None),
    ("ssm", "Document", "DocumentType", C, None),
    ("ssm", "Document", "Content", M, None),
    ("ssm", "Document", "DocumentFormat", M, None),
    ("ssm", "Document", "Tags", M, None),
    ("ssm", "Document", "Owner", R, None),
    ("ssm", "Document", "CreatedDate", R, None),
    ("ssm", "Association", "Name", M, "OVERLAY: UpdateAssociation takes the document Name as a new value; the rules take it for the natural key"),
    ("ssm", "Association", "Parameters", M, None),
    ("ssm", "Association", "ScheduleExpression", M, None),
    ("ssm", "Association", "Targets", M, None),
    ("ssm", "Association", "MaxConcurrency", M, None),
    ("ssm", "Association", "AssociationId", R, None),
    ("ssm", "Association", "LastExecutionDate", R, None),
]


def _row(service: str, resource: str, field: str, expected: Mutability, overlay: str | None) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=overlay)] if overlay else []
    return pytest.param(service, resource, field, expected, marks=marks, id=f"{service}.{resource}.{field}")


def _actual(service: str, resource: str, field: str) -> Mutability:
    return annotated(service).resource(resource).field(field).mutability


@pytest.mark.parametrize(("service", "resource", "field", "expected"), [_row(*r) for r in ROWS])
def test_field_class(service: str, resource: str, field: str, expected: Mutability) -> None:
    f = annotated(service).resource(resource).field(field)
    assert f.mutability is expected, f.provenance


def test_table_size() -> None:
    assert len(ROWS) >= 220
    assert len({r[0] for r in ROWS}) >= 10
    assert len({r[:3] for r in ROWS}) == len(ROWS), "each field once"


def test_agreement() -> None:
    """The agreement figure: rows the rules get right / rows; every OVERLAY row is a miss and
    every other row a hit (so the figure is what the marks say)."""
    hits = [r for r in ROWS if _actual(*r[:3]) is r[3]]
    overlays = [r for r in ROWS if r[4]]
    print(f"\nAWS accuracy: {len(hits)}/{len(ROWS)} = {len(hits) / len(ROWS):.1%} "
          f"across {len({r[0] for r in ROWS})} services ({len(overlays)} rows need an overlay)")
    assert len(hits) + len(overlays) == len(ROWS)
